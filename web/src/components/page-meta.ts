import { useEffect } from 'react';

function setMeta(name: string, content: string) {
  let tag = document.head.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
  if (!tag) {
    tag = document.createElement('meta');
    tag.name = name;
    document.head.append(tag);
  }
  tag.content = content;
}

/** Each page's title, description and keywords (spec: static pages set all three). */
export function usePageMeta(
  title: string,
  description: string,
  keywords = 'bitcoin escrow, btc escrow, secure bitcoin payments',
) {
  useEffect(() => {
    document.title = `${title} | Escrow`;
    setMeta('description', description);
    setMeta('keywords', keywords);
  }, [title, description, keywords]);
}
