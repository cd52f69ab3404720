import { Link } from 'react-router';

/** A web address in the assistant's text; it ends at white space. */
const ADDRESS = /https?:\/\/\S+/g;
/** Punctuation that ends the sentence around an address rather than the address. */
const TRAILING = /[.,;:!?)]+$/;

type LinkedTextProps = {
  text: string;
  /** Whose pages open in place; others open in a new tab. The page's own by default. */
  origin?: string;
};

function parsed(address: string): URL | null {
  try {
    return new URL(address);
  } catch {
    return null;
  }
}

/**
 * The assistant's text with its web addresses as links: the shop's own pages (an order's page)
 * open in place, other https addresses (the Discord invite) in a new tab. Anything else stays
 * text.
 */
export function LinkedText({ text, origin = window.location.origin }: LinkedTextProps) {
  const parts: (string | { address: string; url: URL })[] = [];
  let from = 0;
  for (const match of text.matchAll(ADDRESS)) {
    const address = match[0].replace(TRAILING, '');
    const url = parsed(address);
    const own = url?.origin === origin;
    if (!url || (!own && url.protocol !== 'https:')) continue;
    parts.push(text.slice(from, match.index), { address, url });
    from = match.index + address.length;
  }
  parts.push(text.slice(from));
  return (
    <>
      {parts.map((part, index) => {
        if (typeof part === 'string') return part;
        const { address, url } = part;
        return url.origin === origin ? (
          <Link key={index} to={`${url.pathname}${url.search}${url.hash}`}>
            {address}
          </Link>
        ) : (
          <a key={index} href={address} target="_blank" rel="noopener noreferrer">
            {address}
          </a>
        );
      })}
    </>
  );
}
