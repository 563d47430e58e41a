import { Documented } from '../config/setting-docs.js';
import { BoolSetting, IntSetting, PatternSetting } from '../config/setting-decorators.js';
import { defineSettings, SettingsOf } from '../config/settings.js';

class RecetasVariables {
  @Documented('first retry delay, doubled each time, ±20 % jitter', {
    default: 30,
    env: 'first retry delay, doubled each time, with jitter',
  })
  @IntSetting(1, 86400)
  MINISTRY_RETRY_DELAY_SECONDS?: number;
  @Documented('the doubling stops at this wait', {
    default: 3600,
    env: 'no wait between two attempts is longer than this',
  })
  @IntSetting(1, 86400)
  MINISTRY_RETRY_MAX_DELAY_SECONDS?: number;
  @Documented(
    'then FAILED (also after 24 h); an attempt the circuit breaker stopped is not counted',
    {
      default: 10,
      env: 'then FAILED (also after 24 h); an attempt the circuit breaker stopped before it reached the ministry is not counted: it waits for the breaker instead',
    },
  )
  @IntSetting(1, 100)
  MINISTRY_MAX_ATTEMPTS?: number;
  @Documented('false pauses delivery (notifications stay queued)', {
    default: true,
    env: 'false: registrations queue their notification, nothing delivers',
  })
  @BoolSetting()
  MINISTRY_DELIVERY_ENABLED?: boolean;
  @Documented('deliveries in parallel per instance', { default: 4 })
  @IntSetting(1, 64)
  MINISTRY_WORKER_CONCURRENCY?: number;
  @Documented('prescription types reported (others complete at once)', {
    default: '01,02,03',
    env: 'prescription types reported to the ministry (others complete at once); or none',
  })
  @PatternSetting(
    /^(0[1-3])(,0[1-3])*$|^none$/,
    'must be a comma list of prescription types (01,02,03) or none',
  )
  MINISTRY_NOTIFY_TYPES?: string;
  @Documented('a delivery whose worker died is retried after this', { default: 60 })
  @IntSetting(5, 3600)
  MINISTRY_JOB_EXPIRE_SECONDS?: number;
  // Contract §7: 30 calendar days for medicines, 60 for other prescriptions (Decreto 98/2023, art. 3).
  @Documented('validity window in days (first and last included): CUIR type 01', {
    section: "The prescription's life (SPEC 7)",
    default: 30,
    env: 'validity window in days, first and last included: CUIR type 01 (medicines)',
  })
  @IntSetting(1, 365)
  VIGENCIA_DIAS_MEDICAMENTOS?: number;
  @Documented('validity window in days (first and last included): types 02 and 03', {
    default: 60,
    env: 'validity window in days, first and last included: types 02 (devices) and 03 (studies, practices, procedures)',
  })
  @IntSetting(1, 365)
  VIGENCIA_DIAS_OTRAS?: number;
}

/** The ministry notification of contract §4 and the validity window of contract §7. */
export const recetasSettings = defineSettings(
  'recetas',
  RecetasVariables,
  (v) => ({
    notification: {
      /** First retry delay, doubled after each failed attempt. */
      retryDelaySeconds: v.MINISTRY_RETRY_DELAY_SECONDS ?? 30,
      /** No wait between attempts is longer than this (the doubling stops there). */
      retryMaxDelaySeconds: v.MINISTRY_RETRY_MAX_DELAY_SECONDS ?? 3600,
      maxAttempts: v.MINISTRY_MAX_ATTEMPTS ?? 10,
      /** Off: registrations queue their notification but no worker delivers (benchmarks). */
      deliveryEnabled: v.MINISTRY_DELIVERY_ENABLED ?? true,
      workerConcurrency: v.MINISTRY_WORKER_CONCURRENCY ?? 4,
      /** Prescription types whose registration must be reported (default all). */
      notifyTypes:
        v.MINISTRY_NOTIFY_TYPES === 'none'
          ? []
          : (v.MINISTRY_NOTIFY_TYPES ?? '01,02,03').split(','),
      /** A delivery job whose worker died is retried after this long. */
      jobExpireSeconds: v.MINISTRY_JOB_EXPIRE_SECONDS ?? 60,
    },
    /** Validity window length in days by CUIR type: `01` medicines, `02`/`03` the rest. */
    vigenciaDias: {
      medicamentos: v.VIGENCIA_DIAS_MEDICAMENTOS ?? 30,
      otras: v.VIGENCIA_DIAS_OTRAS ?? 60,
    },
  }),
  { title: 'Ministry notification (job queue on PostgreSQL: pg-boss)' },
);

export type RecetasSettings = SettingsOf<typeof recetasSettings>;
