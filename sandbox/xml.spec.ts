import { toXmlDocument } from './xml.js';

describe('toXmlDocument', () => {
  it('repeats an element for each array entry, writes null as empty, escapes text', () => {
    expect(
      toXmlDocument('r', { a: [{ b: '1' }, { b: '2' }], c: null, d: 'x < y & "z"', e: undefined }),
    ).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<r><a><b>1</b></a><a><b>2</b></a><c/><d>x &lt; y &amp; &quot;z&quot;</d></r>',
    );
  });
});
