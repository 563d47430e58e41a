// Argentina has one time zone and no daylight saving since 2009; naming it keeps the time right
// wherever the service runs. What a person reads (the printed prescription, the public page)
// says so: "(hora de Argentina)".
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
