/** What the auditoria module shares with the others besides its services. */
export * from './audit-event.js';
