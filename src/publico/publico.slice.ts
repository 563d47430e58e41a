import { defineSlice } from '../common/module-slice.js';
import { publicoSettings } from './publico.settings.js';

/** The public verification behind the printed QR (contract §9.4). */
export const publicoSlice = defineSlice({
  name: 'publico',
  module: () => import('./publico.module.js').then((m) => m.PublicoModule),
  settings: [publicoSettings],
  tags: {
    publico:
      'The public verification behind the printed QR: no credentials, a signed link, never the patient.',
  },
  operationIds: { 'GET /r/{cuir}': 'verificarRecetaPublica' },
});
