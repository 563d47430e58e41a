import { UpstreamFailure } from '../resilience/upstream-failure.js';
import { asList, decodeSisaAnswer, listOf, text } from './sisa-answer.js';

const ok = (body: string) => ({ status: 200, body });
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';

function failure(answer: { status: number; body: string }): UpstreamFailure {
  try {
    decodeSisaAnswer('refeps', answer);
  } catch (err) {
    expect(err).toBeInstanceOf(UpstreamFailure);
    return err as UpstreamFailure;
  }
  throw new Error('expected an UpstreamFailure');
}

describe('decodeSisaAnswer', () => {
  it('returns the record for resultado OK, in JSON and in XML alike', () => {
    const json = decodeSisaAnswer('refeps', ok('{"resultado":"OK","apellido":"GÓMEZ"}'));
    const xml = decodeSisaAnswer(
      'refeps',
      ok(
        `${XML_HEAD}<profesional><resultado>OK</resultado><apellido>GÓMEZ</apellido></profesional>`,
      ),
    );
    expect(json).toEqual({ resultado: 'OK', apellido: 'GÓMEZ' });
    expect(xml).toEqual(json);
  });

  it('returns null for REGISTRO_NO_ENCONTRADO (JSON and XML, as the sandbox sends them)', () => {
    expect(decodeSisaAnswer('refeps', ok('{"resultado":"REGISTRO_NO_ENCONTRADO"}'))).toBeNull();
    expect(
      decodeSisaAnswer(
        'renaper',
        ok(`${XML_HEAD}<ciudadano><resultado>REGISTRO_NO_ENCONTRADO</resultado></ciudadano>`),
      ),
    ).toBeNull();
  });

  it.each([
    ['ERROR_AUTENTICACION', false],
    ['NO_TIENE_QUOTA_DISPONIBLE', false],
    ['QUOTA_DIARIA_EXCEDIDA', false],
    ['LIMITE EXCEDIDO', false],
    ['ERROR_DATOS', true],
    ['ERROR_INESPERADO', true],
  ])('resultado %s → UpstreamFailure with that code, retriable=%s', (code, retriable) => {
    for (const body of [
      JSON.stringify({ resultado: code }),
      `${XML_HEAD}<profesional><resultado>${code}</resultado></profesional>`,
    ]) {
      const f = failure(ok(body));
      expect(f.upstreamCode).toBe(code);
      expect(f.retriable).toBe(retriable);
      expect(f.system).toBe('refeps');
    }
  });

  it('does not pass free text from resultado into the logged code', () => {
    const f = failure(ok('{"resultado":"Error: el DNI 25111222 de GÓMEZ no es válido"}'));
    expect(f.upstreamCode).toBe('UNKNOWN_RESULTADO');
    expect(f.message).not.toContain('25111222');
  });

  it.each([
    [
      'the proxy 503 page',
      503,
      '<html><head><title>503 Service Unavailable</title></head></html>',
      'HTTP 503',
      true,
    ],
    ['a 500', 500, '', 'HTTP 500', true],
    ['a 429', 429, '', 'HTTP 429', true],
    ['a 404 (wrong base URL)', 404, 'Not Found', 'HTTP 404', false],
    [
      'an HTML page with 200',
      200,
      '<!DOCTYPE html><html><body>Mantenimiento</body></html>',
      'UNEXPECTED_HTML',
      true,
    ],
    ['truncated JSON', 200, '{"resultado":"OK","apellido":"GÓ', 'INVALID_JSON', true],
    ['a JSON array', 200, '[{"resultado":"OK"}]', 'INVALID_SHAPE', true],
    [
      'truncated XML',
      200,
      `${XML_HEAD}<profesional><resultado>OK</resultado>`,
      'INVALID_XML',
      true,
    ],
    ['XML with a text root', 200, '<profesional>OK</profesional>', 'INVALID_SHAPE', true],
    ['plain text', 200, 'Service temporarily unavailable', 'UNEXPECTED_BODY', true],
    ['an empty body', 200, '', 'EMPTY_BODY', true],
    ['JSON without resultado', 200, '{"apellido":"X"}', 'MISSING_RESULTADO', true],
  ])('%s → UpstreamFailure %s', (_label, status, body, code, retriable) => {
    const f = failure({ status, body });
    expect(f.upstreamCode).toBe(code);
    expect(f.retriable).toBe(retriable);
  });

  it('accepts a lower-case or padded resultado and a BOM', () => {
    expect(decodeSisaAnswer('refeps', ok('\uFEFF {"resultado":" ok "}'))).toEqual({
      resultado: ' ok ',
    });
  });
});

describe('decodeSisaAnswer, XML', () => {
  const record = (inner: string, root = 'ciudadano') =>
    decodeSisaAnswer(
      'renaper',
      ok(`${XML_HEAD}<${root}><resultado>OK</resultado>${inner}</${root}>`),
    );

  it('reads the tree SISA sends as JSON: text, nesting, a repeated child, empty elements', () => {
    expect(record('<a>007</a><b><c>x</c><c>y</c></b><l><i>only</i></l><e></e><f/>')).toEqual({
      resultado: 'OK',
      a: '007', // text stays text
      b: { c: ['x', 'y'] },
      l: { i: 'only' }, // the list-of-one quirk is for listOf/asList
      e: '',
      f: '',
    });
  });

  it('decodes entities, character references and CDATA; ignores attributes, comments, BOM', () => {
    const answer = record(
      '<a k="v">A &amp; B &lt;C&gt; &quot;d&quot; &apos;e&apos;</a><!-- c --><b>&#209;&#xF1;</b>' +
        '<c><![CDATA[<x> & y]]></c><d>GÓMEZ</d>',
    );
    expect(answer).toEqual({
      resultado: 'OK',
      a: 'A & B <C> "d" \'e\'',
      b: 'Ññ',
      c: '<x> & y',
      d: 'GÓMEZ',
    });
    expect(decodeSisaAnswer('renaper', ok('\uFEFF<r><resultado>OK</resultado></r>'))).toEqual({
      resultado: 'OK',
    });
  });

  it.each([
    ['an unclosed element', '<r><resultado>OK</resultado>'],
    ['a mismatched end tag', '<r><resultado>OK</b></r>'],
    ['content after the root', '<r><resultado>OK</resultado></r><s/>'],
    [
      'a DOCTYPE (entity expansion)',
      '<!DOCTYPE r [<!ENTITY x "OK">]><r><resultado>&x;</resultado></r>',
    ],
    ['a broken attribute', '<r a=1><resultado>OK</resultado></r>'],
    ['an unterminated comment', '<r><resultado>OK</resultado><!-- </r>'],
    ['a prototype-polluting name', '<r><resultado>OK</resultado><__proto__>x</__proto__></r>'],
    ['absurd nesting', '<r>' + '<a>'.repeat(100_000) + '</a>'.repeat(100_000) + '</r>'],
  ])('refuses %s as INVALID_XML, without echoing it', (_label, body) => {
    const f = failure(ok(body));
    expect([f.upstreamCode, f.retriable]).toEqual(['INVALID_XML', true]);
    expect(f.message).not.toContain('resultado');
  });
});

describe('SISA list and scalar helpers', () => {
  it('asList: a bare element is a list of one; absent or empty is an empty list', () => {
    expect(asList({ a: 1 })).toEqual([{ a: 1 }]);
    expect(asList([{ a: 1 }, { a: 2 }])).toEqual([{ a: 1 }, { a: 2 }]);
    expect(asList(undefined)).toEqual([]);
    expect(asList(null)).toEqual([]);
    expect(asList('')).toEqual([]);
  });

  it('listOf unwraps the wrapper element and drops non-objects', () => {
    expect(listOf({ matricula: { codigo: '1' } }, 'matricula')).toEqual([{ codigo: '1' }]);
    expect(listOf({ matricula: [{ codigo: '1' }, 'junk'] }, 'matricula')).toEqual([
      { codigo: '1' },
    ]);
    expect(listOf('', 'matricula')).toEqual([]);
    expect(listOf(undefined, 'matricula')).toEqual([]);
  });

  it('text cleans a registry string of controls, separators and invisible marks (SPEC 11.6)', () => {
    expect(text('G\u00d3MEZ\u202e')).toBe('GÓMEZ');
    expect(text(' \u200eLAURA\u0000\u001b\u2028FIRMA ')).toBe('LAURA FIRMA');
  });

  it('text trims strings, prints numbers, and turns null/objects into an empty string', () => {
    expect(text('  a ')).toBe('a');
    expect(text(123456)).toBe('123456');
    expect(text(null)).toBe('');
    expect(text({})).toBe('');
  });
});
