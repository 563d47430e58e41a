import { Injectable } from '@nestjs/common';
import { authSettings, type AuthSettings } from '../../auth/auth.public.js';
import { InjectSettings } from '../../config/settings.js';
import { recetasSettings, type RecetasSettings } from '../recetas.settings.js';
import {
  abrir,
  claveDerivada,
  type ClavesDatos,
  documentoConSal,
  documentoYSal,
  indiceDocumento,
  KID_DERIVADA,
  LABEL_DATOS,
  LABEL_INDICE,
  sellar,
} from './datos-paciente.js';
import {
  COLUMNAS_PERSONALES,
  type DatosPersonales,
  personalesDeJson,
  personalesJson,
} from './datos-personales.js';

/** The column a sealed DNI belongs to (its additional data). */
const DOCUMENTO = 'documento_paciente';
/** The column the sealed personal members live in (their additional data). */
const PERSONALES = 'personales_cifrado';

/** The patient's document as a row stores it: sealed, and its blind index. */
export interface DocumentoSellado {
  documento_cifrado: Buffer;
  documento_indice: Buffer;
}

/** A row's document columns, in either state of the transition (plaintext before `pacientes cifrar`). */
export interface DocumentoGuardado {
  cuir: string;
  documento_paciente: string | null;
  documento_cifrado: Buffer | null;
  /** The content hash's salt in clear: rows registered before SPEC 11.2, until `pacientes cifrar`. */
  content_salt?: Buffer | null;
}

/** A row's document and content hash salt (null: a prescription registered before it had one). */
export interface DocumentoAbierto {
  documento: string;
  sal: Buffer | null;
}

/** A row's personal members, in either state (plaintext columns before `pacientes cifrar`). */
export interface PersonalesGuardados extends DatosPersonales {
  cuir: string;
  personales_cifrado: Buffer | null;
}

/**
 * The keys of the patient's data at rest and what the data layer does with them: seal before a
 * statement, open after it, and the blind index equality look-ups use. The data keys come from
 * PATIENT_DATA_KEYS (outside production, unset: one derived from the pepper); the blind index's
 * key is always derived from the pepper under its own label, so rotating data keys never
 * touches the index.
 */
@Injectable()
export class CifradoPaciente {
  readonly claves: ClavesDatos;
  private readonly claveIndice: Buffer;

  constructor(
    @InjectSettings(authSettings) auth: AuthSettings,
    @InjectSettings(recetasSettings) settings: RecetasSettings,
  ) {
    this.claves = settings.clavesPaciente ?? {
      actual: KID_DERIVADA,
      claves: new Map([[KID_DERIVADA, claveDerivada(auth.secretPepper, LABEL_DATOS)]]),
    };
    this.claveIndice = claveDerivada(auth.secretPepper, LABEL_INDICE);
  }

  /**
   * The document sealed with the content hash's salt inside (SPEC 11.2: never in clear beside
   * the public hash): one seal, which every registration pays already and every read opens.
   */
  sellarDocumento(cuir: string, documento: string, sal: Buffer | null): DocumentoSellado {
    return {
      documento_cifrado: sellar(this.claves, DOCUMENTO, cuir, documentoConSal(documento, sal)),
      documento_indice: this.indice(documento),
    };
  }

  /**
   * SPEC 9.2's personal members sealed as one value (datos-personales.ts), or null when the
   * prescription has none.
   */
  sellarPersonales(cuir: string, r: DatosPersonales): Buffer | null {
    const json = personalesJson(r);
    return json === null ? null : sellar(this.claves, PERSONALES, cuir, json);
  }

  /**
   * The personal members in clear, whichever state the row is in: opened from the seal, or
   * the plaintext columns of a row not sealed yet. Throws for a key not held.
   */
  personales(r: PersonalesGuardados): DatosPersonales {
    if (r.personales_cifrado)
      return personalesDeJson(abrir(this.claves, PERSONALES, r.cuir, r.personales_cifrado));
    const claro = {} as Record<keyof DatosPersonales, string | null>;
    for (const c of COLUMNAS_PERSONALES) claro[c] = r[c];
    return claro as DatosPersonales;
  }

  /** The blind index of a DNI (listar's `documento`, the authority's filter). */
  indice(documento: string): Buffer {
    return indiceDocumento(this.claveIndice, documento);
  }

  /** The document in clear, whichever state the row is in; throws for a key not held. */
  documento(r: DocumentoGuardado): string {
    return this.abrirDocumento(r).documento;
  }

  /**
   * The document and the content hash's salt in clear, whichever state the row is in (the
   * salt in its own column before `pacientes cifrar`, in the seal after); throws for a key not
   * held.
   */
  abrirDocumento(r: DocumentoGuardado): DocumentoAbierto {
    const claro = r.content_salt ?? null;
    if (r.documento_cifrado) {
      const d = documentoYSal(abrir(this.claves, DOCUMENTO, r.cuir, r.documento_cifrado));
      return claro ? { documento: d.documento, sal: claro } : d;
    }
    if (r.documento_paciente !== null) return { documento: r.documento_paciente, sal: claro };
    throw new Error(`prescription ${r.cuir} has no patient document`);
  }
}
