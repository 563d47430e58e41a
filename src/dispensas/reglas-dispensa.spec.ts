import { DomainError } from '../common/errors/domain-error.js';
import {
  dispensaProblem,
  finDelTurno,
  RecetaEnJuego,
  reservaProblem,
  turnoProblem,
} from './reglas-dispensa.js';

const ME = 'me';
const OTHER = 'other';
const hoy = '2026-11-30';

const receta = (over: Partial<RecetaEnJuego> = {}): RecetaEnJuego => ({
  anulada: false,
  vigencia: { desde: '2026-11-22', hasta: '2026-12-21' },
  items: [
    { nombre: 'Ibuprofeno 400 mg', cantidad: 2 },
    { nombre: 'Amoxicilina 500 mg', cantidad: 1 },
  ],
  cerrado: [false, false],
  reserva: null,
  fecha_creacion: new Date('2026-11-22T10:00:00-03:00'),
  ...over,
});

const pedido = (fecha = '2026-11-30T10:00:00-03:00') => ({
  clientId: ME,
  fechaDispensa: new Date(fecha),
  ahora: new Date('2026-11-30T10:00:00-03:00'),
  fechaDispensaAr: fecha.slice(0, 10),
  hoy,
});

const refusal = (e: DomainError | null) =>
  e && { code: e.code, details: e.details?.map((d) => `${d.field}: ${d.issue}`) };

describe('dispensation rules (contract §7), in order, all or nothing', () => {
  it('accepts items within the prescription, partial quantities included', () => {
    expect(dispensaProblem(receta(), pedido(), [{ item: 1, cantidad: 1 }])).toBeNull();
    expect(
      dispensaProblem(receta({ reserva: { client_id: ME, vence_at: new Date() } }), pedido(), [
        { item: 2, cantidad: 1 },
      ]),
    ).toBeNull();
  });

  it('ANULADA first, then another dispenser holding it (its vence_at, never who)', () => {
    const vence = new Date('2026-11-30T13:10:00Z');
    expect(
      refusal(
        dispensaProblem(
          receta({ anulada: true, reserva: { client_id: OTHER, vence_at: vence } }),
          pedido(),
          [{ item: 1, cantidad: 1 }],
        ),
      )?.code,
    ).toBe('RECETA_ANULADA');
    const held = dispensaProblem(
      receta({ reserva: { client_id: OTHER, vence_at: vence } }),
      pedido(),
      [{ item: 1, cantidad: 1 }],
    );
    expect(refusal(held)).toEqual({
      code: 'RECETA_RESERVADA',
      details: [`vence_at: ${vence.toISOString()}`],
    });
    expect(JSON.stringify(held)).not.toContain(OTHER);
  });

  it('outside the window: before its start, after its end, or VENCIDA today whatever the date given', () => {
    const tarde = receta({ vigencia: { desde: '2026-12-01', hasta: '2026-12-30' } });
    expect(refusal(dispensaProblem(tarde, pedido(), [{ item: 1, cantidad: 1 }]))?.code).toBe(
      'RECETA_NO_VIGENTE',
    );
    const vencida = receta({ vigencia: { desde: '2026-10-01', hasta: '2026-10-30' } });
    expect(refusal(dispensaProblem(vencida, pedido(), [{ item: 1, cantidad: 1 }]))?.code).toBe(
      'RECETA_NO_VIGENTE',
    );
    // A date inside the window does not revive a prescription past it today.
    const r = receta({ vigencia: { desde: '2026-11-22', hasta: '2026-11-29' } });
    expect(
      refusal(dispensaProblem(r, pedido('2026-11-28T10:00:00-03:00'), [{ item: 1, cantidad: 1 }]))
        ?.code,
    ).toBe('RECETA_NO_VIGENTE');
  });

  it('fecha_dispensa more than 5 minutes ahead → 400 (once the CUIR is found), up to 5 accepted', () => {
    const at = (fecha: string) =>
      refusal(dispensaProblem(receta(), pedido(fecha), [{ item: 1, cantidad: 1 }]));
    expect(at('2026-11-30T10:05:00-03:00')).toBeNull();
    expect(at('2026-11-30T10:05:00.001-03:00')).toEqual({
      code: 'VALIDATION_FAILED',
      details: ['fecha_dispensa: must not be more than 5 minutes in the future'],
    });
  });

  it('fecha_dispensa before the prescription was issued → 400', () => {
    expect(
      refusal(
        dispensaProblem(receta(), pedido('2026-11-22T09:00:00-03:00'), [{ item: 1, cantidad: 1 }]),
      ),
    ).toEqual({
      code: 'VALIDATION_FAILED',
      details: ['fecha_dispensa: must not be before the prescription was issued'],
    });
  });

  it('an item beyond the prescription → 400, before quantities and before what was dispensed', () => {
    const e = dispensaProblem(receta({ cerrado: [true, false] }), pedido(), [
      { item: 1, cantidad: 5 },
      { item: 3, cantidad: 1 },
    ]);
    expect(refusal(e)).toEqual({
      code: 'VALIDATION_FAILED',
      details: ['items[1].item: the prescription has 2 items'],
    });
  });

  it('more units than prescribed → 422 naming each, before what was dispensed', () => {
    const e = dispensaProblem(receta({ cerrado: [true, false] }), pedido(), [
      { item: 1, cantidad: 3 },
      { item: 2, cantidad: 2 },
    ]);
    expect(refusal(e)).toEqual({
      code: 'CANTIDAD_EXCEDIDA',
      details: [
        'items[0].cantidad: item 1 was prescribed 2 units at most',
        'items[1].cantidad: item 2 was prescribed 1 unit at most',
      ],
    });
  });

  it('an item dispensed already → 409 naming it (also among good ones)', () => {
    const e = dispensaProblem(receta({ cerrado: [false, true] }), pedido(), [
      { item: 1, cantidad: 1 },
      { item: 2, cantidad: 1 },
    ]);
    expect(refusal(e)).toEqual({
      code: 'ITEM_YA_DISPENSADO',
      details: ['items[1].item: item 2 was dispensed already'],
    });
    expect(e?.message).toMatch(/item 2/);
  });
});

describe('reservation rules (contract §7)', () => {
  it('may reserve within the window; the holder may ask again', () => {
    expect(reservaProblem(receta(), ME, hoy)).toBeNull();
    expect(
      reservaProblem(receta({ reserva: { client_id: ME, vence_at: new Date() } }), ME, hoy),
    ).toBeNull();
  });

  it('refuses ANULADA, nothing left, outside the window, and another holder', () => {
    expect(reservaProblem(receta({ anulada: true }), ME, hoy)?.code).toBe('RECETA_ANULADA');
    expect(reservaProblem(receta({ cerrado: [true, true] }), ME, hoy)?.code).toBe(
      'RECETA_DISPENSADA',
    );
    expect(reservaProblem(receta({ cerrado: [true, false] }), ME, hoy)).toBeNull();
    expect(reservaProblem(receta(), ME, '2026-12-22')?.code).toBe('RECETA_NO_VIGENTE');
    expect(reservaProblem(receta(), ME, '2026-11-21')?.code).toBe('RECETA_NO_VIGENTE');
    const e = reservaProblem(
      receta({ reserva: { client_id: OTHER, vence_at: new Date() } }),
      ME,
      hoy,
    );
    expect(e?.code).toBe('RECETA_RESERVADA');
    expect(JSON.stringify(e)).not.toContain(OTHER);
  });
});

describe('turnoProblem (the turn after a reservation ends, or a dispensation is reversed)', () => {
  const ended = new Date('2026-11-30T10:00:00.000Z');
  const later = (seconds: number) => new Date(ended.getTime() + seconds * 1000);
  const at = (seconds: number) => ({
    reserva_terminada_at: ended,
    reversiones_at: [],
    ahora: later(seconds),
  });

  it('nothing ended (never reserved, or consumed by a dispensation not reversed): no refusal', () => {
    expect(
      turnoProblem({ reserva_terminada_at: null, reversiones_at: [], ahora: ended }, 10),
    ).toBeNull();
  });

  it('within DISPENSA_RESERVA_MINUTOS of the end: 409 RESERVA_REITERADA saying from when', () => {
    expect(refusal(turnoProblem(at(0), 10))).toEqual({
      code: 'RESERVA_REITERADA',
      details: ['reservable_desde: 2026-11-30T10:10:00.000Z'],
    });
    expect(turnoProblem(at(599.999), 10)?.message).toMatch(/another dispenser gets its turn/);
  });

  it('from then on: allowed (decimal minutes too)', () => {
    expect(turnoProblem(at(600), 10)).toBeNull();
    expect(turnoProblem(at(3), 0.05)).toBeNull();
    expect(turnoProblem(at(2.9), 0.05)?.code).toBe('RESERVA_REITERADA');
  });

  it('a reversal ends the turn as a release does (SPEC 11.4); the latest end counts', () => {
    const reversed = { reserva_terminada_at: null, reversiones_at: [ended], ahora: later(30) };
    expect(refusal(turnoProblem(reversed, 10))).toEqual({
      code: 'RESERVA_REITERADA',
      details: ['reservable_desde: 2026-11-30T10:10:00.000Z'],
    });
    expect(turnoProblem({ ...reversed, ahora: later(600) }, 10)).toBeNull();
    const both = {
      reserva_terminada_at: later(-3600),
      reversiones_at: [later(-7200), ended],
      ahora: later(60),
    };
    expect(finDelTurno(both)).toEqual(ended);
    expect(turnoProblem(both, 10)?.code).toBe('RESERVA_REITERADA');
    expect(finDelTurno({ ...both, reserva_terminada_at: later(5) })).toEqual(later(5));
  });
});

describe('substitution and catalogue codes (SPEC 9.2), all or nothing', () => {
  const conCodigos = receta({
    items: [
      { nombre: 'Ibupirac 400', cantidad: 2, codigo: '1336421', sustituible: false },
      { nombre: 'Amoxicilina 500 mg', cantidad: 1, codigo: '2393070' },
      { nombre: 'Paracetamol 500 mg', cantidad: 1 },
    ],
    cerrado: [false, false, false],
  });
  const dispensar = (items: Parameters<typeof dispensaProblem>[2], desconocidos: string[] = []) =>
    refusal(
      dispensaProblem(
        conCodigos,
        { ...pedido(), codigosDesconocidos: new Set(desconocidos) },
        items,
      ),
    );

  it('accepts the prescribed code, a declared substitution where allowed, any code for an item prescribed without one', () => {
    expect(dispensar([{ item: 1, cantidad: 2, codigo: '1336421' }])).toBeNull();
    expect(dispensar([{ item: 2, cantidad: 1, codigo: '4083108', sustituido: true }])).toBeNull();
    expect(dispensar([{ item: 3, cantidad: 1, codigo: '1342104' }])).toBeNull();
    expect(dispensar([{ item: 2, cantidad: 1 }])).toBeNull();
  });

  it('sustituido: true on an item marked sustituible: false is 422 SUSTITUCION_NO_PERMITIDA, even with the same code', () => {
    for (const codigo of ['1336421', '2105825', undefined]) {
      expect(
        dispensar([
          { item: 2, cantidad: 1 },
          { item: 1, cantidad: 1, codigo, sustituido: true },
        ]),
      ).toEqual({
        code: 'SUSTITUCION_NO_PERMITIDA',
        details: [
          'items[1].sustituido: item 1 may not be substituted (the prescriber marked it sustituible: false)',
        ],
      });
    }
  });

  it('another code without sustituido: true is 422 SUSTITUCION_NO_DECLARADA, naming each item', () => {
    expect(
      dispensar([
        { item: 1, cantidad: 1, codigo: '2105825' },
        { item: 2, cantidad: 1, codigo: '4083108', sustituido: false },
      ]),
    ).toEqual({
      code: 'SUSTITUCION_NO_DECLARADA',
      details: [
        'items[0].codigo: item 1 was prescribed as 1336421: dispensing 2105825 is a substitution (send sustituido: true)',
        'items[1].codigo: item 2 was prescribed as 2393070: dispensing 4083108 is a substitution (send sustituido: true)',
      ],
    });
  });

  it('a code not in the catalogue is 422 MEDICAMENTO_DESCONOCIDO, after the substitution rules', () => {
    expect(dispensar([{ item: 3, cantidad: 1, codigo: '9999999' }], ['9999999'])).toEqual({
      code: 'MEDICAMENTO_DESCONOCIDO',
      details: ['items[0].codigo: 9999999 is not a code of the medication catalogue'],
    });
    expect(dispensar([{ item: 1, cantidad: 1, codigo: '9999999' }], ['9999999'])?.code).toBe(
      'SUSTITUCION_NO_DECLARADA',
    );
  });

  it('comes after the quantities (422 CANTIDAD_EXCEDIDA) and before an item dispensed already (409)', () => {
    expect(dispensar([{ item: 1, cantidad: 3, codigo: '2105825', sustituido: true }])?.code).toBe(
      'CANTIDAD_EXCEDIDA',
    );
    const cerrada = { ...conCodigos, cerrado: [true, false, false] };
    expect(
      refusal(
        dispensaProblem(cerrada, pedido(), [
          { item: 1, cantidad: 1, codigo: '2105825', sustituido: true },
        ]),
      )?.code,
    ).toBe('SUSTITUCION_NO_PERMITIDA');
  });
});
