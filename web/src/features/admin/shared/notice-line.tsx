import { Message } from '../../../components/ui/message.tsx';
import type { Notice } from '../../../hooks/use-notice.ts';

/** Where a panel says how its last action went. */
export function NoticeLine({ notice }: { notice: Notice | null }) {
  if (!notice) return null;
  return <Message tone={notice.tone}>{notice.text}</Message>;
}
