import { DomainError } from '../common/errors/domain-error.js';
import {
  captureLogger,
  resilienceFor,
  ScriptedSisa,
  SECRET_CLAVE,
  testConfig,
} from '../../test/support/fake-sisa.js';
import { RenaperHttpClient } from './renaper.http-client.js';

// Recorded from the sandbox (GET /sisa/services/rest/cmdb/obtener), verbatim.
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const ANA_JSON =
  '{"resultado":"OK","id":"41873562","nroDocumento":"30111222","apellido":"FERNÁNDEZ","nombre":"ANA MARÍA","sexo":"F","fechaNacimiento":"14-03-1985","estadoCivil":"SOLTERO","provincia":"CIUDAD AUTÓNOMA DE BUENOS AIRES","localidad":"CIUDAD AUTÓNOMA DE BUENOS AIRES","domicilio":"AV. CORRIENTES 1234","pisoDpto":"5 B","codigoPostal":"C1043","paisNacimiento":"ARGENTINA","fallecido":"NO","fechaFallecido":null}';
const ANA_XML =
  XML_HEAD +
  '<ciudadano><resultado>OK</resultado><id>41873562</id><nroDocumento>30111222</nroDocumento><apellido>FERNÁNDEZ</apellido><nombre>ANA MARÍA</nombre><sexo>F</sexo><fechaNacimiento>14-03-1985</fechaNacimiento><estadoCivil>SOLTERO</estadoCivil><provincia>CIUDAD AUTÓNOMA DE BUENOS AIRES</provincia><localidad>CIUDAD AUTÓNOMA DE BUENOS AIRES</localidad><domicilio>AV. CORRIENTES 1234</domicilio><pisoDpto>5 B</pisoDpto><codigoPostal>C1043</codigoPostal><paisNacimiento>ARGENTINA</paisNacimiento><fallecido>NO</fallecido><fechaFallecido/></ciudadano>';
const CARLOS_XML_EMPTY_FLAT =
  XML_HEAD +
  '<ciudadano><resultado>OK</resultado><id>39544810</id><nroDocumento>27333444</nroDocumento><apellido>PÉREZ</apellido><nombre>CARLOS</nombre><sexo>M</sexo><fechaNacimiento>05-11-1979</fechaNacimiento><estadoCivil>CASADO</estadoCivil><provincia>CÓRDOBA</provincia><localidad>CÓRDOBA</localidad><domicilio>BV. SAN JUAN 820</domicilio><pisoDpto></pisoDpto><codigoPostal>X5000</codigoPostal><paisNacimiento>ARGENTINA</paisNacimiento><fallecido>NO</fallecido><fechaFallecido/></ciudadano>';
const NOT_FOUND_XML =
  XML_HEAD + '<ciudadano><resultado>REGISTRO_NO_ENCONTRADO</resultado></ciudadano>';
const QUOTA_JSON = '{"resultado":"QUOTA_DIARIA_EXCEDIDA"}';
const QUOTA_XML = XML_HEAD + '<ciudadano><resultado>QUOTA_DIARIA_EXCEDIDA</resultado></ciudadano>';

const ANA = {
  documento: '30111222',
  nombre: 'ANA MARÍA',
  apellido: 'FERNÁNDEZ',
  fechaNacimiento: '1985-03-14',
  domicilio: {
    calle: 'AV. CORRIENTES 1234',
    pisoDpto: '5 B',
    localidad: 'CIUDAD AUTÓNOMA DE BUENOS AIRES',
    provincia: 'CIUDAD AUTÓNOMA DE BUENOS AIRES',
  },
};

describe('RenaperHttpClient', () => {
  let sisa: ScriptedSisa;
  let client: RenaperHttpClient;
  let logs: () => string;

  beforeEach(() => {
    const config = testConfig();
    const { logger, raw } = captureLogger();
    logs = raw;
    sisa = new ScriptedSisa();
    client = new RenaperHttpClient(sisa.http, config, resilienceFor(config, logger));
  });

  const failsWith = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('UPSTREAM_UNAVAILABLE');
  };

  it('asks cmdb/obtener by document with credentials, accepting JSON', async () => {
    sisa.script({ status: 200, body: ANA_JSON });
    await client.findByDocument('30111222');
    expect(sisa.seen).toEqual([
      {
        url: 'http://renaper.test/sisa/services/rest/cmdb/obtener',
        params: { nrodoc: '30111222', usuario: 'usuario-test', clave: SECRET_CLAVE },
        accept: 'application/json',
      },
    ]);
  });

  it.each([
    ['JSON', ANA_JSON],
    ['XML', ANA_XML],
  ])('maps the %s record, birth date to ISO', async (_label, body) => {
    sisa.script({ status: 200, body });
    expect(await client.findByDocument('30111222')).toEqual(ANA);
  });

  it('an empty pisoDpto element reads as an empty string', async () => {
    sisa.script({ status: 200, body: CARLOS_XML_EMPTY_FLAT });
    const c = await client.findByDocument('27333444');
    expect(c?.domicilio).toEqual({
      calle: 'BV. SAN JUAN 820',
      pisoDpto: '',
      localidad: 'CÓRDOBA',
      provincia: 'CÓRDOBA',
    });
    expect(c?.fechaNacimiento).toBe('1979-11-05');
  });

  it('REGISTRO_NO_ENCONTRADO → null', async () => {
    sisa.script({ status: 200, body: NOT_FOUND_XML });
    expect(await client.findByDocument('99999999')).toBeNull();
  });

  it.each([
    ['daily quota, JSON', QUOTA_JSON],
    ['daily quota, XML', QUOTA_XML],
    ['bad credentials', '{"resultado":"ERROR_AUTENTICACION"}'],
  ])(
    'a refusal (%s) → UPSTREAM_UNAVAILABLE after one call, its code in the log only',
    async (_label, body) => {
      sisa.script({ status: 200, body });
      await failsWith(client.findByDocument('30111222'));
      expect(sisa.seen).toHaveLength(1);
      expect(logs()).toMatch(/"upstream_code":"(QUOTA_DIARIA_EXCEDIDA|ERROR_AUTENTICACION)"/);
      expect(logs()).not.toContain('30111222');
    },
  );

  it.each([
    ['a 502', { status: 502, body: '' }],
    ['garbage', { status: 200, body: '<<<>>>' }],
    ['a reset connection', { networkError: 'ECONNRESET' }],
  ])('%s → UPSTREAM_UNAVAILABLE after a retry', async (_label, answer) => {
    sisa.script(answer);
    await failsWith(client.findByDocument('30111222'));
    expect(sisa.seen).toHaveLength(2);
  });

  it.each(['1985-03-14', '31-02-1985', '', 'catorce'])(
    'refuses a record whose birth date %p is not a dd-mm-yyyy calendar date',
    async (fecha) => {
      sisa.script({ status: 200, body: ANA_JSON.replace('14-03-1985', fecha) });
      await failsWith(client.findByDocument('30111222'));
    },
  );
});
