import { EVIDENCE_FILES } from '@/features/disputes/api/disputes';

/** The evidence files as Stripe gets them, each a PDF opened in a new tab from `href(file)`. */
export function EvidenceFiles({ href }: { href: (file: string) => string }) {
  return (
    <p className="dispute-list__files">
      {EVIDENCE_FILES.map(({ file, label }) => (
        <a key={file} href={href(file)} target="_blank" rel="noreferrer">
          {label} (PDF)
        </a>
      ))}
    </p>
  );
}
