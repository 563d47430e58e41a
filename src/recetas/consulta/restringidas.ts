import type { SelectQueryBuilder } from 'typeorm';
import type { RecetaEntity } from '../entities/receta.entity.js';
import { cuirSubstr, type SubtipoRestringido } from '../contenido/restringida.js';
import type { DocumentoBuscado } from './listado.sql.js';

/** The health authority's filters (SPEC 9.3): its jurisdictions, the range, and the options. */
export interface FiltroRestringidas {
  jurisdicciones: readonly string[];
  desde: Date;
  hasta: Date;
  subtipo?: SubtipoRestringido;
  matricula?: string;
  documento?: string;
  limit: number;
  offset: number;
}

const part = (field: 'jurisdiction' | 'prescriptionType' | 'medicationType', alias: string) => {
  const { from, length } = cuirSubstr(field);
  return `substr(${alias}.cuir, ${from}, ${length})`;
};

/**
 * The restricted prescriptions of the authority's jurisdictions in the range, oldest first. The
 * restriction is written exactly as the partial index `recetas_restringidas` states it, or the
 * planner would not use it.
 */
export function restringidasQuery(
  q: SelectQueryBuilder<RecetaEntity>,
  f: Omit<FiltroRestringidas, 'documento'> & { documento?: DocumentoBuscado; idDesde: string },
): SelectQueryBuilder<RecetaEntity> {
  const r = q.alias;
  q.where(`${part('prescriptionType', r)} = '01' AND ${part('medicationType', r)} IN ('03', '04')`)
    .andWhere(`${part('jurisdiction', r)} IN (:...jurisdicciones)`, {
      jurisdicciones: f.jurisdicciones,
    })
    .andWhere(`${r}.fecha_creacion >= :desde AND ${r}.fecha_creacion <= :hasta`, {
      desde: f.desde,
      hasta: f.hasta,
    })
    // The months before the range are left out of the plan.
    .andWhere(`${r}.id_transaccion >= :idDesde`, { idDesde: f.idDesde });
  if (f.subtipo) q.andWhere(`${part('medicationType', r)} = :subtipo`, { subtipo: f.subtipo });
  if (f.matricula)
    q.andWhere(`${r}.matricula_profesional = :matricula`, { matricula: f.matricula });
  // By the blind index; the plaintext for rows registered before sealing (listado.sql.ts).
  if (f.documento)
    q.andWhere(`(${r}.documento_indice = :indice OR ${r}.documento_paciente = :documento)`, {
      indice: f.documento.indice,
      documento: f.documento.claro,
    });
  return q
    .orderBy(`${r}.fecha_creacion`, 'ASC')
    .addOrderBy(`${r}.id_transaccion`, 'ASC')
    .limit(f.limit)
    .offset(f.offset);
}
