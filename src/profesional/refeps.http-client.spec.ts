import { DomainError } from '../common/errors/domain-error.js';
import {
  captureLogger,
  resilienceFor,
  ScriptedSisa,
  SECRET_CLAVE,
  testConfig,
} from '../../test/support/fake-sisa.js';
import { RefepsHttpClient } from './refeps.http-client.js';

// Recorded from the sandbox (GET /sisa/services/rest/profesional/obtener), verbatim.
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const JSON_TWO_LICENCES =
  '{"resultado":"OK","apellido":"GÓMEZ","nombre":"LAURA","tipoDocumento":"DNI","numeroDocumento":"25111222","sexo":"F","matriculas":{"matricula":[{"codigo":"8123456","matricula":"123456","profesion":"Médico","jurisdiccion":"CIUDAD AUTÓNOMA DE BUENOS AIRES","provincia":"CIUDAD AUTÓNOMA DE BUENOS AIRES","estado":"Habilitado","vigente":"SI","fechaMatricula":"12/03/2005","especialidades":{"especialidad":{"nombre":"Clínica médica","fechaCertificacion":"20/06/2011"}}},{"codigo":"8654321","matricula":"654321","profesion":"Médico","jurisdiccion":"BUENOS AIRES","provincia":"BUENOS AIRES","estado":"Habilitado","vigente":"SI","fechaMatricula":"04/08/2008"}]}}';
const XML_TWO_LICENCES =
  XML_HEAD +
  '<profesional><resultado>OK</resultado><apellido>GÓMEZ</apellido><nombre>LAURA</nombre><tipoDocumento>DNI</tipoDocumento><numeroDocumento>25111222</numeroDocumento><sexo>F</sexo><matriculas><matricula><codigo>8123456</codigo><matricula>123456</matricula><profesion>Médico</profesion><jurisdiccion>CIUDAD AUTÓNOMA DE BUENOS AIRES</jurisdiccion><provincia>CIUDAD AUTÓNOMA DE BUENOS AIRES</provincia><estado>Habilitado</estado><vigente>SI</vigente><fechaMatricula>12/03/2005</fechaMatricula><especialidades><especialidad><nombre>Clínica médica</nombre><fechaCertificacion>20/06/2011</fechaCertificacion></especialidad></especialidades></matricula><matricula><codigo>8654321</codigo><matricula>654321</matricula><profesion>Médico</profesion><jurisdiccion>BUENOS AIRES</jurisdiccion><provincia>BUENOS AIRES</provincia><estado>Habilitado</estado><vigente>SI</vigente><fechaMatricula>04/08/2008</fechaMatricula></matricula></matriculas></profesional>';
const JSON_ONE_LICENCE_BARE =
  '{"resultado":"OK","apellido":"PÉREZ","nombre":"CARLOS","tipoDocumento":"DNI","numeroDocumento":"27333444","sexo":"M","matriculas":{"matricula":{"codigo":"8222333","matricula":"222333","profesion":"Médico","jurisdiccion":"CÓRDOBA","provincia":"CÓRDOBA","estado":"Suspendido","vigente":"NO","fechaMatricula":"15/05/2003","especialidades":{"especialidad":{"nombre":"Pediatría","fechaCertificacion":"10/10/2009"}}}}}';
const XML_ONE_LICENCE_BARE =
  XML_HEAD +
  '<profesional><resultado>OK</resultado><apellido>PÉREZ</apellido><nombre>CARLOS</nombre><tipoDocumento>DNI</tipoDocumento><numeroDocumento>27333444</numeroDocumento><sexo>M</sexo><matriculas><matricula><codigo>8222333</codigo><matricula>222333</matricula><profesion>Médico</profesion><jurisdiccion>CÓRDOBA</jurisdiccion><provincia>CÓRDOBA</provincia><estado>Suspendido</estado><vigente>NO</vigente><fechaMatricula>15/05/2003</fechaMatricula><especialidades><especialidad><nombre>Pediatría</nombre><fechaCertificacion>10/10/2009</fechaCertificacion></especialidad></especialidades></matricula></matriculas></profesional>';
const XML_TWO_SPECIALTIES =
  XML_HEAD +
  '<profesional><resultado>OK</resultado><apellido>MARTÍNEZ</apellido><nombre>SOFÍA</nombre><tipoDocumento>DNI</tipoDocumento><numeroDocumento>28444555</numeroDocumento><sexo>F</sexo><matriculas><matricula><codigo>8345678</codigo><matricula>345678</matricula><profesion>Médico</profesion><jurisdiccion>SANTA FE</jurisdiccion><provincia>SANTA FE</provincia><estado>Habilitado</estado><vigente>SI</vigente><fechaMatricula>01/02/2007</fechaMatricula><especialidades><especialidad><nombre>Cardiología</nombre><fechaCertificacion>03/04/2015</fechaCertificacion></especialidad><especialidad><nombre>Clínica médica</nombre><fechaCertificacion>12/12/2012</fechaCertificacion></especialidad></especialidades></matricula></matriculas></profesional>';
const NOT_FOUND_JSON = '{"resultado":"REGISTRO_NO_ENCONTRADO"}';
const NOT_FOUND_XML =
  XML_HEAD + '<profesional><resultado>REGISTRO_NO_ENCONTRADO</resultado></profesional>';
const resultado = (code: string) => JSON.stringify({ resultado: code });
const PROXY_503 =
  '<html><head><title>503 Service Unavailable</title></head><body><h1>Service Unavailable</h1><p>The server is temporarily unable to service your request. Please try again later.</p></body></html>';

const LAURA = {
  documento: '25111222',
  nombre: 'LAURA',
  apellido: 'GÓMEZ',
  matriculas: [
    {
      matricula: '123456',
      jurisdiccion: '02',
      profesion: 'Médico',
      especialidades: ['Clínica médica'],
      habilitado: true,
      refepsId: '8123456',
    },
    {
      matricula: '654321',
      jurisdiccion: '06',
      profesion: 'Médico',
      especialidades: [],
      habilitado: true,
      refepsId: '8654321',
    },
  ],
};
const CARLOS = {
  documento: '27333444',
  nombre: 'CARLOS',
  apellido: 'PÉREZ',
  matriculas: [
    {
      matricula: '222333',
      jurisdiccion: '14',
      profesion: 'Médico',
      especialidades: ['Pediatría'],
      habilitado: false,
      refepsId: '8222333',
    },
  ],
};

describe('RefepsHttpClient', () => {
  let sisa: ScriptedSisa;
  let client: RefepsHttpClient;
  let logs: () => string;

  beforeEach(() => {
    const config = testConfig();
    const { logger, raw } = captureLogger();
    logs = raw;
    sisa = new ScriptedSisa();
    client = new RefepsHttpClient(sisa.http, config, resilienceFor(config, logger), logger);
  });

  const upstreamUnavailable = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('UPSTREAM_UNAVAILABLE');
    return err as DomainError;
  };

  it('asks obtener for the document, with credentials in the query and JSON accepted', async () => {
    sisa.script({ status: 200, body: JSON_TWO_LICENCES });
    await client.findByDocument('25111222');
    expect(sisa.seen).toEqual([
      {
        url: 'http://refeps.test/sisa/services/rest/profesional/obtener',
        params: { nrodoc: '25111222', usuario: 'usuario-test', clave: SECRET_CLAVE },
        accept: 'application/json',
      },
    ]);
  });

  it.each([
    ['JSON, licences as a list', JSON_TWO_LICENCES, LAURA],
    ['XML, licences as a list', XML_TWO_LICENCES, LAURA],
    ['JSON, one licence sent bare', JSON_ONE_LICENCE_BARE, CARLOS],
    ['XML, one licence sent bare', XML_ONE_LICENCE_BARE, CARLOS],
  ])('maps %s to the domain professional', async (_label, body, expected) => {
    sisa.script({ status: 200, body });
    expect(await client.findByDocument(expected.documento)).toEqual(expected);
  });

  it('reads a list of specialties (XML) in order, and province names into INDEC codes', async () => {
    sisa.script({ status: 200, body: XML_TWO_SPECIALTIES });
    const p = await client.findByDocument('28444555');
    expect(p?.matriculas).toEqual([
      expect.objectContaining({
        jurisdiccion: '82',
        especialidades: ['Cardiología', 'Clínica médica'],
        habilitado: true,
      }),
    ]);
  });

  it.each([NOT_FOUND_JSON, NOT_FOUND_XML])('REGISTRO_NO_ENCONTRADO → null, no retry', async (b) => {
    sisa.script({ status: 200, body: b });
    expect(await client.findByDocument('99999999')).toBeNull();
    expect(sisa.seen).toHaveLength(1);
  });

  it('findByLicence asks buscar with the licence and the INDEC code', async () => {
    sisa.script({ status: 200, body: JSON_TWO_LICENCES });
    expect(await client.findByLicence('654321', '06')).toEqual(LAURA);
    expect(sisa.seen[0].url).toBe('http://refeps.test/sisa/services/rest/profesional/buscar');
    expect(sisa.seen[0].params).toMatchObject({
      matricula: '654321',
      provinciaMatriculacion: '06',
    });
  });

  it.each(['ERROR_AUTENTICACION', 'NO_TIENE_QUOTA_DISPONIBLE', 'LIMITE EXCEDIDO'])(
    '%s → UPSTREAM_UNAVAILABLE after one call (a refusal is not retried), code logged',
    async (code) => {
      sisa.script({ status: 200, body: resultado(code) });
      const err = await upstreamUnavailable(client.findByDocument('25111222'));
      expect(err.message).not.toContain(code);
      expect(sisa.seen).toHaveLength(1);
      expect(logs()).toContain(`"upstream_code":"${code}"`);
    },
  );

  it.each([
    ['an unknown resultado', { status: 200, body: resultado('ERROR_INTERNO') }],
    ['the proxy 503 page', { status: 503, body: PROXY_503 }],
    ['garbage', { status: 200, body: 'Hola' }],
    ['truncated JSON', { status: 200, body: JSON_TWO_LICENCES.slice(0, 80) }],
    ['a refused connection', { networkError: 'ECONNREFUSED' }],
  ])('%s → UPSTREAM_UNAVAILABLE after a retry', async (_label, answer) => {
    sisa.script(answer);
    await upstreamUnavailable(client.findByDocument('25111222'));
    expect(sisa.seen).toHaveLength(2);
  });

  it('a retried failure that then succeeds answers normally', async () => {
    sisa.script({ status: 503, body: PROXY_503 }, { status: 200, body: JSON_TWO_LICENCES });
    expect(await client.findByDocument('25111222')).toEqual(LAURA);
    expect(sisa.seen).toHaveLength(2);
  });

  it('a hung registry is abandoned after the timeout of each attempt', async () => {
    sisa.script('hang');
    const started = Date.now();
    await upstreamUnavailable(client.findByDocument('25111222'));
    expect(sisa.seen).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(100 * 2 + 1000);
  });

  it('never lets the credentials or the document into an error or a log line', async () => {
    sisa.script({ networkError: 'ECONNREFUSED' });
    const err = await upstreamUnavailable(client.findByDocument('25111222'));
    const chain = [err, err.cause, (err.cause as Error | undefined)?.cause];
    const dump = chain.map((e) => `${String(e)} ${JSON.stringify(e)} ${(e as Error)?.stack}`);
    for (const text of [...dump, logs()]) {
      expect(text).not.toContain(SECRET_CLAVE);
      expect(text).not.toContain('25111222');
    }
  });

  it('an OK record without a document or surname is refused as an upstream failure', async () => {
    sisa.script({ status: 200, body: '{"resultado":"OK","nombre":"X"}' });
    await upstreamUnavailable(client.findByDocument('25111222'));
    expect(sisa.seen).toHaveLength(1);
  });

  it('keeps a licence of an unknown province, with an empty code and a warning', async () => {
    const body = JSON_ONE_LICENCE_BARE.replaceAll('CÓRDOBA', 'ATLANTIDA');
    sisa.script({ status: 200, body });
    const p = await client.findByDocument('27333444');
    expect(p?.matriculas[0].jurisdiccion).toBe('');
    expect(logs()).toContain('unknown province');
  });
});
