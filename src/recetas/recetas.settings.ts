import { IsOptional, IsString } from 'class-validator';
import { Documented } from '../config/setting-docs.js';
import { BoolSetting, IntSetting, PatternSetting } from '../config/setting-decorators.js';
import type { SecretSetting } from '../config/production-secret.js';
import { ConfigError, defineSettings, SettingsOf } from '../config/settings.js';
import { parseClaves } from './cifrado/datos-paciente.js';

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
  @Documented('keys of the patient data at rest, `kid:<base64 32 bytes>,…`: the first seals', {
    section: 'Patient data at rest (SPEC 10)',
    defaultText: 'production: required; elsewhere derived from the pepper',
    env: 'AES-256-GCM keys of the patient data at rest: kid1:<32 random bytes in base64, e.g. openssl rand -base64 32>,kid0:<…>. The first seals new data; every listed key opens what it sealed (rotation: put a new key first, run `npm run cli -- pacientes cifrar`, then drop the old one). Required in production; elsewhere unset means one key derived from API_SECRET_PEPPER (id "pepper").',
  })
  @IsOptional()
  @IsString()
  PATIENT_DATA_KEYS?: string;
}

/** PATIENT_DATA_KEYS read (their strength is production-secret.ts's rule: the slice's secrets). */
function patientKeys(value: string | undefined, nodeEnv: string) {
  if (value === undefined || value.trim() === '') {
    if (nodeEnv === 'production')
      throw new ConfigError(['PATIENT_DATA_KEYS: is required when NODE_ENV=production']);
    return undefined;
  }
  const { claves, problems } = parseClaves(value);
  if (problems.length) throw new ConfigError(problems.map((p) => `PATIENT_DATA_KEYS: ${p}`));
  return claves;
}

/** Each data key as it seals: its decoded bytes (none while the list does not parse). */
function patientKeySecrets(value: string | undefined): SecretSetting[] {
  const claves = value === undefined ? undefined : parseClaves(value).claves;
  return [...(claves?.claves ?? [])].map(([kid, key]) => ({
    name: `PATIENT_DATA_KEYS: key ${kid}`,
    value: key.toString('base64'),
    bytes: key,
  }));
}

/** The ministry notification of contract §4 and the validity window of contract §7. */
export const recetasSettings = defineSettings(
  'recetas',
  RecetasVariables,
  (v, core) => ({
    clavesPaciente: patientKeys(v.PATIENT_DATA_KEYS, core.nodeEnv),
    notification: {
      retryDelaySeconds: v.MINISTRY_RETRY_DELAY_SECONDS ?? 30,
      retryMaxDelaySeconds: v.MINISTRY_RETRY_MAX_DELAY_SECONDS ?? 3600,
      maxAttempts: v.MINISTRY_MAX_ATTEMPTS ?? 10,
      deliveryEnabled: v.MINISTRY_DELIVERY_ENABLED ?? true,
      workerConcurrency: v.MINISTRY_WORKER_CONCURRENCY ?? 4,
      notifyTypes:
        v.MINISTRY_NOTIFY_TYPES === 'none'
          ? []
          : (v.MINISTRY_NOTIFY_TYPES ?? '01,02,03').split(','),
      jobExpireSeconds: v.MINISTRY_JOB_EXPIRE_SECONDS ?? 60,
    },
    vigenciaDias: {
      medicamentos: v.VIGENCIA_DIAS_MEDICAMENTOS ?? 30,
      otras: v.VIGENCIA_DIAS_OTRAS ?? 60,
    },
  }),
  {
    title: 'Ministry notification (job queue on PostgreSQL: pg-boss)',
    secrets: (v) => patientKeySecrets(v.PATIENT_DATA_KEYS),
  },
);

export type RecetasSettings = SettingsOf<typeof recetasSettings>;
