import { defineSlice } from '../common/module-slice.js';
import { ministerioSettings } from './ministerio.settings.js';

/**
 * The ministry's pointer API: the port and its HTTP adapter (contract §4). Its Nest module is
 * imported by recetas.
 */
export const ministerioSlice = defineSlice({ name: 'ministerio', settings: [ministerioSettings] });
