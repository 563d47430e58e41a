import { startSandbox, type RunningSandbox } from './server.js';

// Bodies are checked by the assertions themselves, so the tests read them untyped.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type TestResponse = Omit<Response, 'json'> & { json(): Promise<any> };
const fetch = (url: string, init?: RequestInit) =>
  globalThis.fetch(url, init) as Promise<TestResponse>;

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
});
afterAll(() => sandbox.close());

const BASE = '/sisa/services/rest/profesional';
const CREDS = 'usuario=sandbox&clave=sandbox';

async function getJson(path: string) {
  const res = await fetch(sandbox.url + path, { headers: { accept: 'application/json' } });
  expect(res.status).toBe(200);
  return res.json();
}

async function getXml(path: string) {
  const res = await fetch(sandbox.url + path);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/xml;charset=UTF-8');
  return res.text();
}

describe('REFEPS obtener', () => {
  it('answers Laura Gómez with two licences as a list (JSON)', async () => {
    const body = await getJson(`${BASE}/obtener?${CREDS}&nrodoc=25111222`);
    expect(body).toMatchObject({
      resultado: 'OK',
      apellido: 'GÓMEZ',
      nombre: 'LAURA',
      tipoDocumento: 'DNI',
      numeroDocumento: '25111222',
      sexo: 'F',
    });
    const [caba, bsas] = body.matriculas.matricula;
    expect(caba).toMatchObject({
      codigo: '8123456',
      matricula: '123456',
      profesion: 'Médico',
      jurisdiccion: 'CIUDAD AUTÓNOMA DE BUENOS AIRES',
      provincia: 'CIUDAD AUTÓNOMA DE BUENOS AIRES',
      estado: 'Habilitado',
      vigente: 'SI',
      // one specialty: a bare object, not a list
      especialidades: { especialidad: { nombre: 'Clínica médica' } },
    });
    expect(bsas).toMatchObject({ matricula: '654321', provincia: 'BUENOS AIRES', vigente: 'SI' });
    expect(bsas.especialidades).toBeUndefined();
  });

  it('answers Carlos Pérez with his one suspended licence as a bare object', async () => {
    const body = await getJson(`${BASE}/obtener?${CREDS}&nrodoc=27333444`);
    expect(body.apellido).toBe('PÉREZ');
    expect(Array.isArray(body.matriculas.matricula)).toBe(false);
    expect(body.matriculas.matricula).toMatchObject({
      matricula: '222333',
      provincia: 'CÓRDOBA',
      vigente: 'NO',
      estado: 'Suspendido',
    });
  });

  it('lists two specialties as an array', async () => {
    const body = await getJson(`${BASE}/obtener?${CREDS}&nrodoc=28444555`);
    expect(body.matriculas.matricula.especialidades.especialidad).toHaveLength(2);
  });

  it('answers XML by default, with repeated <matricula> elements', async () => {
    const xml = await getXml(`${BASE}/obtener?${CREDS}&nrodoc=25111222`);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<profesional>')).toBe(true);
    expect(xml).toContain('<resultado>OK</resultado><apellido>GÓMEZ</apellido>');
    expect(xml.match(/<matricula><codigo>/g)).toHaveLength(2);
    expect(xml).toContain('<especialidades><especialidad><nombre>Clínica médica</nombre>');
  });

  it('reports a missing professional with HTTP 200, in JSON and XML', async () => {
    expect(await getJson(`${BASE}/obtener?${CREDS}&nrodoc=99999999`)).toEqual({
      resultado: 'REGISTRO_NO_ENCONTRADO',
    });
    expect(await getXml(`${BASE}/obtener?${CREDS}&nrodoc=99999999`)).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<profesional><resultado>REGISTRO_NO_ENCONTRADO</resultado></profesional>',
    );
  });

  it.each([
    ['usuario=sandbox&clave=wrong&nrodoc=25111222', 'ERROR_AUTENTICACION'],
    ['nrodoc=25111222', 'ERROR_AUTENTICACION'],
    [CREDS, 'ERROR_DATOS'],
    [`${CREDS}&nrodoc=88888888`, 'LIMITE EXCEDIDO'],
  ])('answers %s with resultado %s', async (query, resultado) => {
    expect(await getJson(`${BASE}/obtener?${query}`)).toEqual({ resultado });
  });
});

describe('REFEPS buscar', () => {
  it.each([
    'CIUDAD AUTÓNOMA DE BUENOS AIRES',
    'ciudad autonoma de buenos aires',
    '02',
    '2',
    'CABA',
  ])('finds licence 123456 with provinciaMatriculacion=%s', async (provincia) => {
    const q = `matricula=123456&provinciaMatriculacion=${encodeURIComponent(provincia)}`;
    const body = await getJson(`${BASE}/buscar?${CREDS}&${q}`);
    expect(body).toMatchObject({ resultado: 'OK', numeroDocumento: '25111222' });
  });

  it('does not find a licence in another province', async () => {
    const body = await getJson(
      `${BASE}/buscar?${CREDS}&matricula=123456&provinciaMatriculacion=14`,
    );
    expect(body).toEqual({ resultado: 'REGISTRO_NO_ENCONTRADO' });
  });

  it('asks for both parameters and a known province', async () => {
    for (const q of [
      'matricula=123456',
      'provinciaMatriculacion=02',
      'matricula=1&provinciaMatriculacion=ATLANTIS',
    ]) {
      expect(await getJson(`${BASE}/buscar?${CREDS}&${q}`)).toEqual({ resultado: 'ERROR_DATOS' });
    }
  });
});
