/** What the auth module shares with the others besides its services (.dependency-cruiser.cjs). */
export * from './auth.settings.js';
export * from './rate-limiters.js';
