/**
 * A deliberately small XML reader for SISA's answers: elements and text only, the way SISA
 * serialises the same tree it sends as JSON. Attributes are ignored; a repeated child becomes
 * an array; an element holding only text becomes a string (an empty one ''). DOCTYPE and
 * custom entities are refused, so no entity expansion can be abused. Anything malformed
 * throws XmlParseError (without echoing the input, which may hold personal data).
 */
export type XmlNode = string | XmlElement;
export interface XmlElement {
  [name: string]: XmlNode | XmlNode[];
}

export class XmlParseError extends Error {
  constructor(reason: string) {
    super(`malformed XML: ${reason}`);
    this.name = 'XmlParseError';
  }
}

const MAX_DEPTH = 64;
const NAME = /[A-Za-z_][\w.:-]*/y;
const ATTRIBUTES = /^(?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*\s*\/?$/;
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&([^;\s]{1,10});/g, (_m, ref: string) => {
    if (ref in ENTITIES) return ENTITIES[ref];
    const code = /^#x[0-9a-f]+$/i.test(ref)
      ? parseInt(ref.slice(2), 16)
      : /^#\d+$/.test(ref)
        ? parseInt(ref.slice(1), 10)
        : NaN;
    if (!Number.isInteger(code) || code < 1 || code > 0x10ffff) {
      throw new XmlParseError('unknown entity');
    }
    return String.fromCodePoint(code);
  });
}

class Reader {
  private pos = 0;
  constructor(private readonly src: string) {}

  /** Skips whitespace, the XML declaration, processing instructions and comments. */
  skipMisc(): void {
    for (;;) {
      const before = this.pos;
      while (this.pos < this.src.length && /\s/.test(this.src[this.pos])) this.pos++;
      if (this.src.startsWith('<?', this.pos)) this.skipPast('?>');
      else if (this.src.startsWith('<!--', this.pos)) this.skipPast('-->');
      if (this.pos === before) return;
    }
  }

  atEnd(): boolean {
    return this.pos >= this.src.length;
  }

  private skipPast(end: string): string {
    const at = this.src.indexOf(end, this.pos);
    if (at < 0) throw new XmlParseError(`unterminated construct, expected ${end}`);
    const inner = this.src.slice(this.pos, at);
    this.pos = at + end.length;
    return inner;
  }

  private name(): string {
    NAME.lastIndex = this.pos;
    const m = NAME.exec(this.src);
    if (!m) throw new XmlParseError(`expected a name at offset ${this.pos}`);
    this.pos += m[0].length;
    return m[0];
  }

  element(depth: number): { name: string; value: XmlNode } {
    if (depth > MAX_DEPTH) throw new XmlParseError('nesting too deep');
    if (this.src.startsWith('<!', this.pos)) throw new XmlParseError('DOCTYPE not allowed');
    if (this.src[this.pos] !== '<') throw new XmlParseError(`expected '<' at offset ${this.pos}`);
    this.pos++;
    const name = this.name();
    const rest = this.skipPast('>'); // attributes are checked for form, then ignored
    if (!ATTRIBUTES.test(rest)) throw new XmlParseError(`malformed tag <${name}>`);
    if (rest.endsWith('/')) return { name, value: '' };

    let text = '';
    const children: XmlElement = {};
    let hasChildren = false;
    for (;;) {
      if (this.atEnd()) throw new XmlParseError(`unclosed element <${name}>`);
      if (this.src.startsWith('</', this.pos)) {
        this.pos += 2;
        const closing = this.name();
        this.skipPast('>');
        if (closing !== name) throw new XmlParseError(`mismatched </${closing}>`);
        return { name, value: hasChildren ? children : text };
      }
      if (this.src.startsWith('<![CDATA[', this.pos)) {
        this.pos += 9;
        text += this.skipPast(']]>');
      } else if (this.src.startsWith('<!--', this.pos) || this.src.startsWith('<?', this.pos)) {
        this.skipMisc();
      } else if (this.src[this.pos] === '<') {
        const child = this.element(depth + 1);
        hasChildren = true;
        const existing = children[child.name];
        if (existing === undefined) children[child.name] = child.value;
        else if (Array.isArray(existing)) existing.push(child.value);
        else children[child.name] = [existing, child.value];
      } else {
        const next = this.src.indexOf('<', this.pos);
        const end = next < 0 ? this.src.length : next;
        text += decodeEntities(this.src.slice(this.pos, end));
        this.pos = end;
      }
    }
  }
}

/** Parses a whole document: its root element's name and value. */
export function parseXml(source: string): { root: string; value: XmlNode } {
  const reader = new Reader(source.replace(/^\uFEFF/, ''));
  reader.skipMisc();
  const { name, value } = reader.element(0);
  reader.skipMisc();
  if (!reader.atEnd()) throw new XmlParseError('content after the root element');
  return { root: name, value };
}
