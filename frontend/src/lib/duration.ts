/** A number of minutes for people: "4 min", "1 h 5 min", "2 h". */
export function minutesLabel(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}

/** A duration in seconds, to the nearest minute ("< 1 min" under half a minute). */
export function secondsAsMinutesLabel(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  return minutes === 0 ? '< 1 min' : minutesLabel(minutes);
}
