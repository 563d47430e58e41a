// Named, the time is right wherever the service runs.
const AR_DATE_TIME = new Intl.DateTimeFormat('es-AR', {
  timeZone: 'America/Argentina/Buenos_Aires',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** "22/11/2026 10:30" in Argentina time, from an ISO 8601 instant. */
export function fechaHoraAr(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return AR_DATE_TIME.format(date).replace(',', '');
}
