import { DomainError, validationFailed } from '../common/errors/domain-error.js';
import type { ErrorDetail } from '../common/errors/error-codes.js';
import { medicamentoDesconocido } from '../medicamentos/medicamentos.public.js';
import type { VidaReceta } from '../recetas/recetas.public.js';
import type { Receta } from '../recetas/recetas.service.js';

/**
 * Contract §7's rules of reservation and dispensation, pure, over what the prescription's row
 * lock protects: each returns the first rule broken (in the contract's order), or null.
 */

/** What the rules read of a prescription (its row and its VidaReceta). */
export interface RecetaEnJuego {
  anulada: boolean;
  vigencia: { desde: string; hasta: string };
  /** Per item (index = position − 1); `sustituible: false`: the prescriber forbade substitution. */
  items: Array<{ nombre: string; cantidad: number; codigo?: string; sustituible?: boolean }>;
  /** Per item: closed by a dispensation not reversed. */
  cerrado: boolean[];
  reserva: { client_id: string; vence_at: Date } | null;
  fecha_creacion: Date;
}

export function recetaEnJuego(r: Receta, vida: VidaReceta): RecetaEnJuego {
  return {
    anulada: vida.anulacion !== null,
    vigencia: { desde: vida.vigencia_desde, hasta: vida.vigencia_hasta },
    items: r.items,
    cerrado: vida.cerrado,
    reserva: vida.reserva,
    fecha_creacion: r.fecha_creacion,
  };
}

export interface ItemPedido {
  item: number;
  cantidad: number;
  codigo?: string;
  sustituido?: boolean;
}

/** Five minutes of clock skew between the pharmacy's clock and ours (as for fecha_creacion). */
const MAX_ADELANTO_MS = 5 * 60_000;

const anulada = () =>
  new DomainError('RECETA_ANULADA', 'The prescription was cancelled by its prescriber');

/** The holder is never named: only until when the reservation holds. */
const reservadaPorOtro = (venceAt: Date) =>
  new DomainError(
    'RECETA_RESERVADA',
    `Another dispenser holds a reservation on this prescription until ${venceAt.toISOString()}`,
    [{ field: 'vence_at', issue: venceAt.toISOString() }],
  );

const noVigente = (v: { desde: string; hasta: string }, fecha: string) =>
  new DomainError(
    'RECETA_NO_VIGENTE',
    `The prescription is valid from ${v.desde} to ${v.hasta} (Argentina time); not on ${fecha}`,
  );

/** Reserving: not cancelled, something left, within the window today, nobody else holding it. */
export function reservaProblem(
  r: RecetaEnJuego,
  clientId: string,
  hoy: string,
): DomainError | null {
  if (r.anulada) return anulada();
  if (r.cerrado.length > 0 && r.cerrado.every(Boolean))
    return new DomainError('RECETA_DISPENSADA', 'Every item of the prescription was dispensed');
  if (hoy < r.vigencia.desde || hoy > r.vigencia.hasta) return noVigente(r.vigencia, hoy);
  if (r.reserva && r.reserva.client_id !== clientId) return reservadaPorOtro(r.reserva.vence_at);
  return null;
}

/** What the turn rule reads of the caller's past with the prescription, by the database's clock. */
export interface TurnoDelCliente {
  ahora: Date;
  /** When its latest reservation that ended without a dispensation was released, or lapsed. */
  reserva_terminada_at: Date | null;
  /** When each of its dispensations of the prescription was reversed. */
  reversiones_at: readonly Date[];
}

/**
 * When the caller's turn last ended: its reservation lapsing or released, or its dispensation
 * reversed (which gives the prescription back as a release does, SPEC 11.4).
 */
export function finDelTurno(t: TurnoDelCliente): Date | null {
  const fines = [t.reserva_terminada_at, ...t.reversiones_at].filter((d): d is Date => d !== null);
  return fines.length === 0 ? null : new Date(Math.max(...fines.map((d) => d.getTime())));
}

/** The turn rule: a client whose turn ended may not reserve again for `minutos`. */
export function turnoProblem(t: TurnoDelCliente, minutos: number): DomainError | null {
  const fin = finDelTurno(t);
  if (!fin) return null;
  const desde = new Date(fin.getTime() + minutos * 60_000);
  if (t.ahora.getTime() >= desde.getTime()) return null;
  return new DomainError(
    'RESERVA_REITERADA',
    `Your reservation of this prescription ended; another dispenser gets its turn: you may reserve it again from ${desde.toISOString()} (dispensing needs no reservation)`,
    [{ field: 'reservable_desde', issue: desde.toISOString() }],
  );
}

/**
 * Dispensing, all or nothing, in contract §7's order (item errors name every offending item). The
 * 400s on fecha_dispensa come once the CUIR was found: an unknown one is always a counted miss.
 */
export function dispensaProblem(
  r: RecetaEnJuego,
  pedido: {
    clientId: string;
    fechaDispensa: Date;
    ahora: Date;
    fechaDispensaAr: string;
    hoy: string;
    codigosDesconocidos?: ReadonlySet<string>;
  },
  items: ItemPedido[],
): DomainError | null {
  if (r.anulada) return anulada();
  if (r.reserva && r.reserva.client_id !== pedido.clientId)
    return reservadaPorOtro(r.reserva.vence_at);
  if (pedido.fechaDispensa.getTime() > pedido.ahora.getTime() + MAX_ADELANTO_MS)
    return validationFailed([
      { field: 'fecha_dispensa', issue: 'must not be more than 5 minutes in the future' },
    ]);
  if (pedido.fechaDispensa.getTime() < r.fecha_creacion.getTime())
    return validationFailed([
      { field: 'fecha_dispensa', issue: 'must not be before the prescription was issued' },
    ]);
  const { desde, hasta } = r.vigencia;
  if (pedido.fechaDispensaAr < desde || pedido.fechaDispensaAr > hasta)
    return noVigente(r.vigencia, pedido.fechaDispensaAr);
  if (pedido.hoy > hasta) return noVigente(r.vigencia, pedido.hoy);

  const prescrito = (i: ItemPedido) => r.items[i.item - 1];
  return (
    itemProblem(items, [
      {
        field: 'item',
        bad: (i) => i.item > r.items.length,
        issue: () =>
          `the prescription has ${r.items.length} item${r.items.length === 1 ? '' : 's'}`,
        refusal: validationFailed,
      },
      {
        field: 'cantidad',
        bad: (i) => i.cantidad > prescrito(i).cantidad,
        issue: (i) => {
          const n = prescrito(i).cantidad;
          return `item ${i.item} was prescribed ${n} unit${n === 1 ? '' : 's'} at most`;
        },
        refusal: (d) =>
          new DomainError(
            'CANTIDAD_EXCEDIDA',
            'More units than prescribed for an item; nothing was dispensed',
            d,
          ),
      },
      // SPEC 9.2's substitution rules (an item prescribed without a code takes any code).
      {
        field: 'sustituido',
        bad: (i) => i.sustituido === true && prescrito(i).sustituible === false,
        issue: (i) =>
          `item ${i.item} may not be substituted (the prescriber marked it sustituible: false)`,
        refusal: (d) =>
          new DomainError(
            'SUSTITUCION_NO_PERMITIDA',
            'The prescriber forbade substituting an item; nothing was dispensed',
            d,
          ),
      },
      {
        field: 'codigo',
        bad: (i) =>
          i.sustituido !== true &&
          i.codigo !== undefined &&
          prescrito(i).codigo !== undefined &&
          i.codigo !== prescrito(i).codigo,
        issue: (i) =>
          `item ${i.item} was prescribed as ${prescrito(i).codigo}: dispensing ${i.codigo} is a substitution (send sustituido: true)`,
        refusal: (d) =>
          new DomainError(
            'SUSTITUCION_NO_DECLARADA',
            'A code other than the prescribed one was dispensed without declaring a substitution; nothing was dispensed',
            d,
          ),
      },
    ]) ??
    medicamentoDesconocido(items, pedido.codigosDesconocidos ?? new Set()) ??
    itemProblem(items, [
      {
        field: 'item',
        bad: (i) => r.cerrado[i.item - 1],
        issue: (i) => `item ${i.item} was dispensed already`,
        refusal: itemYaDispensado,
      },
    ])
  );
}

/** 409 naming the items (also what a violation of the database's own constraint answers). */
export function itemYaDispensado(details: ErrorDetail[]): DomainError {
  return new DomainError(
    'ITEM_YA_DISPENSADO',
    `Already dispensed: ${details.map((d) => d.issue.replace(/ was dispensed already$/, '')).join(', ')}; nothing was dispensed`,
    details,
  );
}

interface ItemRule {
  field: 'item' | 'cantidad' | 'codigo' | 'sustituido';
  bad: (i: ItemPedido) => boolean;
  issue: (i: ItemPedido) => string;
  refusal: (details: ErrorDetail[]) => DomainError;
}

/** The first rule some item breaks, as its refusal naming every such item; in order. */
function itemProblem(items: ItemPedido[], rules: ItemRule[]): DomainError | null {
  for (const rule of rules) {
    const details = items.flatMap((i, n) =>
      rule.bad(i) ? [{ field: `items[${n}].${rule.field}`, issue: rule.issue(i) }] : [],
    );
    if (details.length > 0) return rule.refusal(details);
  }
  return null;
}
