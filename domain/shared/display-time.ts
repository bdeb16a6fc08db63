/** How people read a time, on screen and in mail alike: one format, always in UTC (readers are anywhere). */

const dateTime = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'UTC',
  hourCycle: 'h23',
});

/** "2026-11-24T15:49:03.120Z" → "24 Nov 2026, 15:49 UTC" */
export const displayUtc = (time: string | Date) =>
  `${dateTime.format(typeof time === 'string' ? new Date(time) : time)} UTC`;
