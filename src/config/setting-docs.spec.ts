import { Documented, envExample, settingsTable, undocumented } from './setting-docs.js';
import { IntSetting } from './setting-decorators.js';

class Example {
  @Documented('how many | at most', { section: 'Examples', default: 3 })
  @IntSetting(1, 9)
  EXAMPLE_COUNT?: number;
  @Documented('a computed one', { defaultText: 'twice EXAMPLE_COUNT', env: 'longer words' })
  @IntSetting(1, 99)
  EXAMPLE_TWICE?: number;
  @IntSetting(1, 9)
  EXAMPLE_FORGOTTEN?: number;
}

describe('settings documented from the code', () => {
  const groups = [{ title: 'Ignored: the first setting has a section', variables: Example }];

  it('finds a setting without @Documented', () => {
    expect(undocumented(groups[0])).toEqual(['EXAMPLE_FORGOTTEN']);
  });

  it("writes the README's rows: name, default (or its text), meaning", () => {
    expect(settingsTable(groups).split('\n').slice(2)).toEqual([
      '| `EXAMPLE_COUNT` | 3 | how many \\| at most |',
      '| `EXAMPLE_TWICE` | twice EXAMPLE_COUNT | a computed one |',
    ]);
  });

  it('writes .env.example: section, comment (env, else the meaning), the default or nothing', () => {
    const text = envExample(groups);
    expect(text.slice(text.indexOf('# --- '))).toBe(
      '# --- Examples\n# how many | at most\nEXAMPLE_COUNT=3\n# longer words\nEXAMPLE_TWICE=\n',
    );
  });
});
