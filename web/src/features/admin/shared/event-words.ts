/** An event's sentence (a lower-case phrase from the API) as a line that starts with a capital. */
export const sentence = (summary: string) => summary.charAt(0).toUpperCase() + summary.slice(1);

/** Who acted, as a person reads it: the username, else `system`, `anonymous`, or a short id of a user now gone. */
export function actorName(entry: { actor: string; actor_username: string | null }): string {
  if (entry.actor_username) return entry.actor_username;
  return entry.actor === 'system' || entry.actor === 'anonymous' ? entry.actor : `user ${entry.actor.slice(0, 8)}`;
}
