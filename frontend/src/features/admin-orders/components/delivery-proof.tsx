import { useProofChoices } from '@/features/admin-orders/api/get-proof-choices';

/** How many of a proof's pictures a card shows; the rest are a tap away on the first. */
const THUMBNAILS = 3;

/**
 * The proof a delivered order was delivered with: its pictures as thumbnails, each opening the
 * full picture. The proofs are the public list (GET /api/proofs), fetched once for every card.
 */
export function DeliveryProof({ proofId }: { proofId: number }) {
  const proofs = useProofChoices({ enabled: true });
  const proof = proofs.data?.find((known) => known.id === proofId);
  if (proofs.isPending) {
    return <p className="order-card__proof">Proof #{proofId}</p>;
  }
  if (!proof) {
    return (
      <p className="order-card__proof">
        Proof #{proofId} {proofs.isError ? '(could not be loaded)' : '(deleted)'}
      </p>
    );
  }
  return (
    <div className="order-card__proof">
      <span>
        Proof #{proof.id} · {proof.items}
      </span>
      <ul className="order-card__proof-pictures" aria-label={`Proof #${proof.id} pictures`}>
        {proof.images.slice(0, THUMBNAILS).map((image, index) => (
          <li key={image}>
            <a href={image} target="_blank" rel="noreferrer">
              <img
                src={image}
                alt={`Proof #${proof.id}, picture ${index + 1}`}
                width={56}
                height={56}
                loading="lazy"
              />
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
