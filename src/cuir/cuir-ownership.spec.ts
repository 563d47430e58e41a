import { buildCuir, CuirComponents } from './cuir-format.js';
import { cuirDigitsProblem } from './cuir-ownership.js';

const components = (over: Partial<CuirComponents> = {}): CuirComponents => ({
  platform: '0042',
  repository: '0007',
  jurisdiction: '02',
  prescriptionType: '01',
  medicationType: '02',
  groupId: '1'.repeat(25),
  itemId: '01',
  ...over,
});
const ids = { platformId: '0042', repositoryId: '0007' };

describe('cuirDigitsProblem', () => {
  it("accepts a CUIR with the caller's platform id and this repository's id", () => {
    expect(cuirDigitsProblem(buildCuir(components()), ids)).toBeNull();
  });

  it('names foreign platform digits first', () => {
    expect(
      cuirDigitsProblem(buildCuir(components({ platform: '0001', repository: '0001' })), ids),
    ).toBe("platform digits 0001 are not this client's platform id 0042");
  });

  it('names foreign repository digits', () => {
    expect(cuirDigitsProblem(buildCuir(components({ repository: '0008' })), ids)).toBe(
      "repository digits 0008 are not this repository's id 0007",
    );
  });

  it('does not confuse the platform with matching digits elsewhere in the CUIR', () => {
    const cuir = buildCuir(components({ platform: '0007', repository: '0042' }));
    expect(cuirDigitsProblem(cuir, ids)).toMatch(/^platform digits 0007/);
  });
});
