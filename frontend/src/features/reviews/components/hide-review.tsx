import { useState, type FormEvent } from 'react';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { errorMessage, fieldErrors } from '@/lib/api-client';

import { useHideReview, type Review } from '@/features/reviews/api/reviews';

import './hide-review.css';

/** The server's limit for the reason (see docs/api.md). */
const REASON_MAX = 500;

/**
 * Staff only: "Hide" on a review opens a dialog asking why; the review is kept on the server with
 * who hid it and why, and leaves the list. The server checks the role on its own.
 */
export function HideReviewButton({ review }: { review: Review }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        className="review-card__hide"
        aria-label={`Hide review by ${review.name}`}
        onClick={() => setOpen(true)}
      >
        Hide
      </Button>
      {open ? <HideReviewDialog review={review} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function HideReviewDialog({ review, onClose }: { review: Review; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const hide = useHideReview();

  const close = () => {
    if (!hide.isPending) onClose();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = reason.trim();
    if (!trimmed) {
      setReasonError('Please say why the review is hidden.');
      return;
    }
    if (trimmed.length > REASON_MAX) {
      setReasonError(`Please keep the reason under ${REASON_MAX} characters.`);
      return;
    }
    setFailure(undefined);
    hide.mutate(
      { id: review.id, reason: trimmed },
      {
        onSuccess: () => onClose(),
        onError: (error) => {
          const fields = fieldErrors(error);
          if (fields.reason) setReasonError(fields.reason);
          else setFailure(errorMessage(error));
        },
      },
    );
  };

  return (
    <Modal open onClose={close} title="Hide this review?">
      <form className="hide-review-form" aria-label="Hide review" noValidate onSubmit={onSubmit}>
        <p className="hide-review-form__lead">
          The review by {review.name} leaves the page. It is kept, with who hid it and why.
        </p>
        <Field label="Reason" error={reasonError} hint="Only staff see it.">
          {(control) => (
            <textarea
              {...control}
              className="form-control"
              required
              rows={3}
              maxLength={REASON_MAX}
              value={reason}
              onChange={(event) => {
                setReason(event.currentTarget.value);
                setReasonError(undefined);
              }}
            />
          )}
        </Field>
        {failure ? (
          <p role="alert" className="hide-review-form__error">
            {failure}
          </p>
        ) : null}
        <div className="hide-review-form__actions">
          <Button variant="secondary" onClick={close} disabled={hide.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" loading={hide.isPending}>
            Hide review
          </Button>
        </div>
      </form>
    </Modal>
  );
}
