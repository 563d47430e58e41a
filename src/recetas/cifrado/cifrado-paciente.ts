import { Injectable } from '@nestjs/common';
import { authSettings, type AuthSettings } from '../../auth/auth.public.js';
import { InjectSettings } from '../../config/inject-settings.js';
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

// The columns the sealed values belong to (their additional data).
const DOCUMENTO = 'documento_paciente';
const PERSONALES = 'personales_cifrado';

/** A row's document columns, in either state (plaintext before `pacientes cifrar`). */
export interface DocumentoGuardado {
  cuir: string;
  documento_paciente: string | null;
  documento_cifrado: Buffer | null;
  /** The content hash's salt in clear: rows registered before SPEC 11.2, until `pacientes cifrar`. */
  content_salt?: Buffer | null;
}

/** A row's personal members, in either state (plaintext columns before `pacientes cifrar`). */
export interface PersonalesGuardados extends DatosPersonales {
  cuir: string;
  personales_cifrado: Buffer | null;
}

/**
 * The patient's data at rest: sealed before a statement, opened after it, and the blind index
 * look-ups use. Data keys from PATIENT_DATA_KEYS (unset outside production: derived from the
 * pepper); the index's key always from the pepper, so rotating data keys never touches it.
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

  /** The document sealed with the content hash's salt inside (SPEC 11.2), and its blind index. */
  sellarDocumento(
    cuir: string,
    documento: string,
    sal: Buffer | null,
  ): { documento_cifrado: Buffer; documento_indice: Buffer } {
    return {
      documento_cifrado: sellar(this.claves, DOCUMENTO, cuir, documentoConSal(documento, sal)),
      documento_indice: this.indice(documento),
    };
  }

  /** SPEC 9.2's personal members sealed as one value, or null when there are none. */
  sellarPersonales(cuir: string, r: DatosPersonales): Buffer | null {
    const json = personalesJson(r);
    return json === null ? null : sellar(this.claves, PERSONALES, cuir, json);
  }

  /** The personal members in clear, whichever state the row is in; throws for a key not held. */
  personales(r: PersonalesGuardados): DatosPersonales {
    if (r.personales_cifrado)
      return personalesDeJson(abrir(this.claves, PERSONALES, r.cuir, r.personales_cifrado));
    return Object.fromEntries(COLUMNAS_PERSONALES.map((c) => [c, r[c]])) as DatosPersonales;
  }

  /** The blind index of a DNI (listar's `documento`, the authority's filter). */
  indice(documento: string): Buffer {
    return indiceDocumento(this.claveIndice, documento);
  }

  /** The document and the content hash's salt (null: none) in clear, from either state. */
  abrirDocumento(r: DocumentoGuardado): { documento: string; sal: Buffer | null } {
    const claro = r.content_salt ?? null;
    if (r.documento_cifrado) {
      const d = documentoYSal(abrir(this.claves, DOCUMENTO, r.cuir, r.documento_cifrado));
      return claro ? { documento: d.documento, sal: claro } : d;
    }
    if (r.documento_paciente !== null) return { documento: r.documento_paciente, sal: claro };
    throw new Error(`prescription ${r.cuir} has no patient document`);
  }
}
