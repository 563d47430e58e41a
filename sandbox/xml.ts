/**
 * Minimal XML writer for the SISA emulation. SISA serialises the same object tree it sends as
 * JSON: an array becomes the same element repeated, null becomes an empty element.
 */
export type XmlValue = string | number | boolean | null | undefined | XmlObject | XmlValue[];
export interface XmlObject {
  [key: string]: XmlValue;
}

export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function element(name: string, value: XmlValue): string {
  if (value === undefined) return '';
  if (Array.isArray(value)) return value.map((v) => element(name, v)).join('');
  if (value === null) return `<${name}/>`;
  if (typeof value === 'object') {
    const inner = Object.entries(value)
      .map(([k, v]) => element(k, v))
      .join('');
    return `<${name}>${inner}</${name}>`;
  }
  return `<${name}>${escapeXml(String(value))}</${name}>`;
}

export function toXmlDocument(root: string, value: XmlObject): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element(root, value)}`;
}
