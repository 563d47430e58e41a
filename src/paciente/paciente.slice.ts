import { defineSlice } from '../common/module-slice.js';
import { pacienteSettings } from './paciente.settings.js';

/** The patient's access by citizen token and the printable prescription (contract §8). */
export const pacienteSlice = defineSlice({
  name: 'paciente',
  module: () => import('./paciente.module.js').then((m) => m.PacienteModule),
  settings: [pacienteSettings],
  tags: {
    paciente:
      "The citizen's own access by a Mi Argentina token (Authorization: Bearer, never API keys): a prescription by its CUIR and its printable document.",
  },
  operationIds: {
    // The owner's printable document (tag recetas) is served by this module too.
    'GET /v1/recetas/{id_transaccion}/documento': 'descargarDocumentoReceta',
    'GET /v1/paciente/recetas/{cuir}': 'obtenerRecetaPaciente',
    'GET /v1/paciente/recetas/{cuir}/documento': 'descargarDocumentoRecetaPaciente',
  },
});
