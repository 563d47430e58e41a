import { createHmac, randomUUID } from 'node:crypto';
import type { ApiCredentials } from './db.js';
import type { LoopOp, Planned } from './open-loop.js';
import { FULL_CONTENT } from './requests.js';
import { runTag } from './run-tag.js';

/**
 * SPEC 13's national peak at ×1, per second: Germany's e-prescription peak scaled to Argentina's
 * 2 million prescriptions a day (about 585 requests/s).
 */
export const NATIONAL_MIX = [
  { name: 'cuir', rate: 165, what: 'POST /v1/cuir/generar (platforms)' },
  { name: 'registrar', rate: 140, what: 'POST /v1/recetas/registrar, Idempotency-Key (platforms)' },
  { name: 'verificar', rate: 60, what: 'GET /v1/recetas/verificar/{cuir} (pharmacies)' },
  { name: 'detalle', rate: 25, what: 'GET /v1/recetas/{id} (owner)' },
  { name: 'listar', rate: 15, what: 'GET /v1/recetas/listar, the last day (owner)' },
  { name: 'paciente', rate: 10, what: 'GET /v1/paciente/recetas/{cuir} (citizen token)' },
  { name: 'publico', rate: 20, what: 'GET /r/{cuir}?f=… (the QR, no credentials)' },
  { name: 'reservar', rate: 100, what: 'POST /v1/dispensas/reservas (pharmacies)' },
  { name: 'dispensar', rate: 50, what: 'POST /v1/dispensas, with the reservation (same pharmacy)' },
] as const;
export type MixOpName = (typeof NATIONAL_MIX)[number]['name'];

export interface Platform extends ApiCredentials {
  /** Its prescribing-platform id (the CUIR's first 4 digits). */
  platformId: string;
  /** CUIRs generated for it and not registered yet. */
  cuirs: Queue<string>;
}
export interface Pharmacy extends ApiCredentials {
  cuit: string;
}
export interface Citizen {
  dni: string;
  cuil: string;
  token?: string;
  mintedAt: number;
}
interface Receta {
  cuir: string;
  id: string;
  owner: Platform;
  citizen: Citizen;
}
interface Reserved {
  receta: Receta;
  pharmacy: Pharmacy;
  reservaId: string;
  at: number;
}

/** A FIFO that does not copy on every shift. */
export class Queue<T> {
  private items: T[] = [];
  private head = 0;
  get size() {
    return this.items.length - this.head;
  }
  push(x: T) {
    this.items.push(x);
  }
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const x = this.items[this.head++];
    if (this.head > 4096 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return x;
  }
}

/** Contract §9: the link's `f`, the first 128 bits of HMAC-SHA256("cuir:" + CUIR), base64url. */
export const firmaPublica = (clave: string, cuir: string) =>
  createHmac('sha256', Buffer.from(clave, 'utf8'))
    .update(`cuir:${cuir}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url');

/** A CUIL for an 8-digit DNI: the first of the usual prefixes with a check digit (mod 11). */
export function cuilOf(dni: string): string {
  for (const prefix of ['20', '27', '23', '24']) {
    const digits = prefix + dni;
    const sum = [...digits].reduce(
      (a, d, i) => a + Number(d) * [5, 4, 3, 2, 7, 6, 5, 4, 3, 2][i],
      0,
    );
    const check = (11 - (sum % 11)) % 11;
    if (check !== 10) return digits + String(check);
  }
  throw new Error(`no CUIL for DNI ${dni}`);
}

/** A reservation not dispensed this long after it was made is left to lapse (the patient left). */
const DISPENSE_WITHIN_MS = 5 * 60_000;
/** Prescriptions the reads draw from: the newest this many. */
const READ_POOL = 200_000;

/**
 * The data of a national day as it flows through the mix: platforms generate CUIRs into their
 * pools and register them (each registration on a CUIR issued to it); every prescription
 * registered joins the reads' pool and the queue to be reserved; each reservation, by one
 * pharmacy, joins the queue its dispensation takes from, by the same pharmacy, with its
 * reservation. Nothing is reserved or dispensed twice, so a 409 means the service disagrees.
 */
export class MixState {
  private readonly recent: Receta[] = [];
  private recentNext = 0;
  private readonly toReserve = new Queue<Receta>();
  private readonly toDispense = new Queue<Reserved>();
  private seq = 0;
  private turn = 0;
  readonly window: { desde: string; hasta: string };

  constructor(
    readonly platforms: Platform[],
    readonly pharmacies: Pharmacy[],
    readonly citizens: Citizen[],
    private readonly clavePublica: string,
    private readonly random: () => number,
  ) {
    const now = Date.now();
    // The listing asks for the last day (everything registered in the run is in it).
    this.window = {
      desde: new Date(now - 86_400_000).toISOString(),
      hasta: new Date(now + 2 * 86_400_000).toISOString(),
    };
  }

  get sizes() {
    return {
      registered: Math.min(this.recentNext, READ_POOL),
      to_reserve: this.toReserve.size,
      to_dispense: this.toDispense.size,
      cuirs_unregistered: this.platforms.reduce((a, p) => a + p.cuirs.size, 0),
    };
  }

  /** The operations at their ×1 rates. */
  ops(): LoopOp[] {
    const build: Record<MixOpName, () => Planned | undefined> = {
      cuir: () => this.generar(),
      registrar: () => this.registrar(),
      verificar: () => this.verificar(),
      detalle: () => this.detalle(),
      listar: () => this.listar(),
      paciente: () => this.paciente(),
      publico: () => this.publico(),
      reservar: () => this.reservar(),
      dispensar: () => this.dispensar(),
    };
    return NATIONAL_MIX.map((m) => ({ name: m.name, rate: m.rate, next: build[m.name] }));
  }

  private pick<T>(xs: T[]): T {
    return xs[Math.floor(this.random() * xs.length)];
  }

  private receta(): Receta | undefined {
    const n = Math.min(this.recentNext, READ_POOL);
    return n ? this.recent[Math.floor(this.random() * n)] : undefined;
  }

  generar(): Planned {
    const platform = this.platforms[this.turn++ % this.platforms.length];
    // 25 digits: this run's tag, a counter; platform ids keep two platforms' CUIRs apart.
    const groupId = `2${runTag}${String(++this.seq).padStart(15, '0')}`;
    return {
      spec: post('/v1/cuir/generar', platform.headers, {
        groupId,
        itemId: '01',
        state: '02',
        prescriptionType: '01',
        medicationType: '02',
      }),
      keepBody: true,
      onAnswer: (status, body) => {
        if (status === 201) platform.cuirs.push(dataOf<{ cuir: string }>(body).cuir);
      },
    };
  }

  registrar(): Planned | undefined {
    for (let i = 0; i < this.platforms.length; i++) {
      const owner = this.platforms[this.turn++ % this.platforms.length];
      const cuir = owner.cuirs.shift();
      if (!cuir) continue;
      const citizen = this.citizens[this.seq++ % this.citizens.length];
      const spec = post('/v1/recetas/registrar', owner.headers, {
        documento_paciente: citizen.dni,
        matricula_profesional: '123456',
        refeps_id: '8123456',
        locacion: 'Hospital de Clínicas, consultorio 12',
        cuir,
        id_de_receta: `RX-${runTag}-${this.seq}`,
        nombre_medicamento: 'Ibuprofeno',
        fecha_creacion: new Date(Date.now() - 60_000).toISOString(),
        ...FULL_CONTENT,
      });
      spec.headers['idempotency-key'] = randomUUID();
      return {
        spec,
        keepBody: true,
        onAnswer: (status, body) => {
          if (status !== 201) return;
          const id = dataOf<{ id_transaccion: string }>(body).id_transaccion;
          const r: Receta = { cuir, id, owner, citizen };
          this.recent[this.recentNext++ % READ_POOL] = r;
          this.toReserve.push(r);
        },
      };
    }
    return undefined;
  }

  verificar(): Planned | undefined {
    const r = this.receta();
    if (!r) return undefined;
    const headers = this.pick(this.pharmacies).headers;
    return { spec: { method: 'GET', path: `/v1/recetas/verificar/${r.cuir}`, headers } };
  }

  detalle(): Planned | undefined {
    const r = this.receta();
    if (!r) return undefined;
    return { spec: { method: 'GET', path: `/v1/recetas/${r.id}`, headers: r.owner.headers } };
  }

  listar(): Planned {
    const owner = this.pick(this.platforms);
    const path =
      `/v1/recetas/listar?fecha_desde=${encodeURIComponent(this.window.desde)}` +
      `&fecha_hasta=${encodeURIComponent(this.window.hasta)}`;
    return { spec: { method: 'GET', path, headers: owner.headers } };
  }

  paciente(): Planned | undefined {
    const r = this.receta();
    if (!r?.citizen.token) return undefined;
    const headers = { authorization: `Bearer ${r.citizen.token}` };
    return { spec: { method: 'GET', path: `/v1/paciente/recetas/${r.cuir}`, headers } };
  }

  publico(): Planned | undefined {
    const r = this.receta();
    if (!r) return undefined;
    const path = `/r/${r.cuir}?f=${firmaPublica(this.clavePublica, r.cuir)}`;
    // A phone that scanned the QR: the HTML page.
    return { spec: { method: 'GET', path, headers: { accept: 'text/html' } } };
  }

  reservar(): Planned | undefined {
    const receta = this.toReserve.shift();
    if (!receta) return undefined;
    const pharmacy = this.pick(this.pharmacies);
    return {
      spec: post('/v1/dispensas/reservas', pharmacy.headers, { cuir: receta.cuir }),
      keepBody: true,
      onAnswer: (status, body) => {
        if (status !== 201 && status !== 200) return;
        const reservaId = dataOf<{ reserva_id: string }>(body).reserva_id;
        this.toDispense.push({ receta, pharmacy, reservaId, at: Date.now() });
      },
    };
  }

  dispensar(): Planned | undefined {
    let r = this.toDispense.shift();
    while (r && Date.now() - r.at > DISPENSE_WITHIN_MS) r = this.toDispense.shift();
    if (!r) return undefined;
    return {
      spec: post('/v1/dispensas', r.pharmacy.headers, {
        cuir: r.receta.cuir,
        reserva_id: r.reservaId,
        farmacia: { cuit: r.pharmacy.cuit, nombre: 'Farmacia Bench' },
        fecha_dispensa: new Date().toISOString(),
        items: [{ item: 1, cantidad: FULL_CONTENT.items[0].cantidad }],
      }),
    };
  }
}

function post(path: string, headers: Record<string, string>, body: unknown) {
  return {
    method: 'POST' as const,
    path,
    headers: { ...headers },
    body: JSON.stringify(body),
  };
}

function dataOf<T>(body: string): T {
  return (JSON.parse(body) as { data: T }).data;
}
