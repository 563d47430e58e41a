/** What the recetas module shares with the others besides its services (.dependency-cruiser.cjs). */
export * from './consulta/dto/receta-filtros.query.js';
export * from './contenido/dto/contenido.dto.js';
export * from './notificacion/receta-webhooks.service.js';
export * from './receta-content-hash.js';
export * from './receta-state.js';
export * from './registro/dto/registrar-receta.dto.js';
export * from './vida/dispensacion.port.js';
export * from './vida/dto/receta-vida.dto.js';
export * from './vida/dto/receta-vista.dto.js';
export * from './vida/estado-receta.js';
export * from './vida/receta-vida.js';
export * from './vida/vigencia.js';
export * from './vida/vista.js';
