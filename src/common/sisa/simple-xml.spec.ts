import { parseXml, XmlParseError } from './simple-xml.js';

describe('parseXml', () => {
  it('reads SISA-style elements: text, nesting, repetition, empty and self-closing', () => {
    const doc =
      '<?xml version="1.0" encoding="UTF-8"?>\n<r><a>1</a><b><c>x</c><c>y</c></b><e></e><f/></r>';
    expect(parseXml(doc)).toEqual({
      root: 'r',
      value: { a: '1', b: { c: ['x', 'y'] }, e: '', f: '' },
    });
  });

  it('keeps a single child bare (the list-of-one quirk is for the caller to handle)', () => {
    expect(parseXml('<r><l><i>only</i></l></r>').value).toEqual({ l: { i: 'only' } });
  });

  it('decodes entities, character references and CDATA; keeps accents', () => {
    const { value } = parseXml(
      '<r><a>A &amp; B &lt;C&gt; &quot;d&quot; &apos;e&apos;</a><b>&#233;&#xE9;</b><c><![CDATA[<x> & y]]></c><d>GÓMEZ</d></r>',
    );
    expect(value).toEqual({ a: 'A & B <C> "d" \'e\'', b: 'éé', c: '<x> & y', d: 'GÓMEZ' });
  });

  it('skips comments, processing instructions, whitespace and attributes', () => {
    const doc = '\uFEFF<!-- hi -->\n<r x="1" y=\'2\'>\n  <a>1</a>\n  <!-- c -->\n</r>\n';
    expect(parseXml(doc)).toEqual({ root: 'r', value: { a: '1' } });
  });

  it.each([
    ['an empty document', ''],
    ['plain text', 'hello'],
    ['an unclosed element', '<r><a>1</a>'],
    ['a mismatched end tag', '<r><a>1</b></r>'],
    ['content after the root', '<r/><s/>'],
    ['a DOCTYPE (entity expansion)', '<!DOCTYPE r [<!ENTITY x "y">]><r>&x;</r>'],
    ['an unknown entity', '<r>&nbsp;</r>'],
    ['a broken tag', '<r a=1></r>'],
    ['an unterminated comment', '<r><!-- </r>'],
  ])('refuses %s', (_label, doc) => {
    expect(() => parseXml(doc)).toThrow(XmlParseError);
  });

  it('refuses absurd nesting instead of overflowing the stack', () => {
    const deep = '<a>'.repeat(100) + '</a>'.repeat(100);
    expect(() => parseXml(deep)).toThrow(/too deep/);
  });

  it('never echoes the input in its error message', () => {
    try {
      parseXml('<r><nombre>ANA</nombre><x>25111222</y></r>');
      throw new Error('should have thrown');
    } catch (err) {
      expect((err as Error).message).not.toMatch(/ANA|25111222/);
    }
  });
});
