import type { RegistrarRecetaDto } from './dto/registrar-receta.dto.js';
import { MENSAJES } from './receta-state.js';
import type { NewReceta } from './recetas.repository.js';

/**
 * The row a registration request becomes. No dependencies beyond its types, so the bench's
 * baseline and floor map a request exactly as the service does.
 */
export function newReceta(
  clientId: string,
  dto: RegistrarRecetaDto,
  idempotencyKey: string | null,
): NewReceta {
  return {
    clientId,
    cuir: dto.cuir,
    documentoPaciente: dto.documento_paciente,
    matriculaProfesional: dto.matricula_profesional,
    refepsId: dto.refeps_id ?? null,
    locacion: dto.locacion,
    idDeReceta: dto.id_de_receta ?? null,
    nombreMedicamento: dto.nombre_medicamento ?? null,
    fechaCreacion: dto.fecha_creacion,
    items: dto.items.map((i) => ({
      nombre: i.nombre,
      cantidad: i.cantidad,
      ...(i.codigo ? { codigo: i.codigo } : {}),
    })),
    mensaje: MENSAJES.PENDING,
    idempotencyKey,
  };
}

/** A new registration's answer, without its id (the id exists only once the row is inserted). */
export function pendingAnswer(dto: RegistrarRecetaDto) {
  return {
    estado: 'PENDING' as const,
    mensaje: MENSAJES.PENDING,
    cuir: dto.cuir,
    id_de_receta: dto.id_de_receta ?? null,
  };
}
