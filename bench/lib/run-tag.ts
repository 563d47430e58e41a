/** This run's tag, in every group id the bench makes up (9 digits of the start time). */
export const runTag = String(Date.now() % 1e9).padStart(9, '0');
