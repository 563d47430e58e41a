import { startSandbox, type RunningSandbox } from './server.js';

// Bodies are checked by the assertions themselves, so the tests read them untyped.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type TestResponse = Omit<Response, 'json'> & { json(): Promise<any> };
const fetch = (url: string, init?: RequestInit) =>
  globalThis.fetch(url, init) as Promise<TestResponse>;

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, sisaUser: 'u1', sisaPassword: 'p1' });
});
afterAll(() => sandbox.close());

const PATH = '/sisa/services/rest/cmdb/obtener?usuario=u1&clave=p1';

async function getJson(query: string) {
  const res = await fetch(`${sandbox.url}${PATH}&${query}`, {
    headers: { accept: 'application/json, text/plain, */*' },
  });
  expect(res.status).toBe(200);
  return res.json();
}

describe('RENAPER obtener', () => {
  it('answers Ana María Fernández (JSON)', async () => {
    expect(await getJson('nrodoc=30111222&sexo=F')).toEqual({
      resultado: 'OK',
      id: expect.any(String),
      nroDocumento: '30111222',
      apellido: 'FERNÁNDEZ',
      nombre: 'ANA MARÍA',
      sexo: 'F',
      fechaNacimiento: '14-03-1985',
      estadoCivil: expect.any(String),
      provincia: 'CIUDAD AUTÓNOMA DE BUENOS AIRES',
      localidad: 'CIUDAD AUTÓNOMA DE BUENOS AIRES',
      domicilio: 'AV. CORRIENTES 1234',
      pisoDpto: '5 B',
      codigoPostal: 'C1043',
      paisNacimiento: 'ARGENTINA',
      fallecido: 'NO',
      fechaFallecido: null,
    });
  });

  it('matches by document alone when sexo is absent, and not on the wrong sexo', async () => {
    expect((await getJson('nrodoc=30111222')).resultado).toBe('OK');
    expect(await getJson('nrodoc=30111222&sexo=M')).toEqual({
      resultado: 'REGISTRO_NO_ENCONTRADO',
    });
  });

  it('answers XML by default with root <ciudadano>', async () => {
    const res = await fetch(`${sandbox.url}${PATH}&nrodoc=27333444`);
    const xml = await res.text();
    expect(res.headers.get('content-type')).toBe('application/xml;charset=UTF-8');
    expect(xml).toContain('<ciudadano><resultado>OK</resultado>');
    expect(xml).toContain('<pisoDpto></pisoDpto>');
    expect(xml).toContain('<fechaFallecido/>');
  });

  it('reports not found, bad credentials and missing document with HTTP 200', async () => {
    expect(await getJson('nrodoc=99999999')).toEqual({ resultado: 'REGISTRO_NO_ENCONTRADO' });
    expect(await getJson('nrodoc=')).toEqual({ resultado: 'ERROR_DATOS' });
    const res = await fetch(
      `${sandbox.url}/sisa/services/rest/cmdb/obtener?usuario=sandbox&clave=sandbox&nrodoc=30111222`,
      {
        headers: { accept: 'application/json' },
      },
    );
    expect(await res.json()).toEqual({ resultado: 'ERROR_AUTENTICACION' });
  });

  it('answers QUOTA_DIARIA_EXCEDIDA and ERROR_AUTENTICACION under quota and auth faults', async () => {
    for (const [mode, resultado] of [
      ['quota', 'QUOTA_DIARIA_EXCEDIDA'],
      ['auth', 'ERROR_AUTENTICACION'],
    ]) {
      await fetch(`${sandbox.url}/__sandbox/faults`, {
        method: 'POST',
        body: JSON.stringify({ service: 'renaper', mode }),
      });
      expect(await getJson('nrodoc=30111222')).toEqual({ resultado });
    }
    await fetch(`${sandbox.url}/__sandbox/faults`, { method: 'DELETE' });
    expect((await getJson('nrodoc=30111222')).resultado).toBe('OK');
  });
});
