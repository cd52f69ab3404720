import { useState, type FormEvent } from 'react';

import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { errorMessage, fieldErrors } from '@/lib/api-client';
import { formatPrice } from '@/lib/money';

import { EvidenceFiles } from './evidence-files';

import {
  NOTE_MAX,
  evidenceHref,
  useAcceptDispute,
  useSubmitDispute,
  type Dispute,
} from '@/features/disputes/api/disputes';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const EVIDENCE: Record<Dispute['evidence'], { label: string; tone: BadgeTone }> = {
  none: { label: 'No evidence sent', tone: 'neutral' },
  staged: { label: 'Evidence staged: review it', tone: 'warning' },
  submitted: { label: 'Evidence submitted', tone: 'brand' },
};

/** The bank's reason in words (Stripe's codes otherwise as they are, underscores spaced). */
function reasonLabel(reason: string | null): string {
  if (!reason) return 'No reason given';
  const words: Record<string, string> = {
    fraudulent: 'Fraudulent (not the card holder)',
    product_not_received: 'Product not received',
    unrecognized: 'Unrecognized charge',
    duplicate: 'Duplicate charge',
    subscription_canceled: 'Subscription canceled',
    product_unacceptable: 'Product unacceptable',
    credit_not_processed: 'Credit not processed',
    general: 'General',
  };
  return words[reason] ?? reason.replaceAll('_', ' ');
}

function amount(dispute: Dispute): string {
  return dispute.currency === 'USD'
    ? formatPrice(dispute.amount)
    : `${dispute.amount.toFixed(2)} ${dispute.currency}`;
}

/** What staff can still do, in words. */
function advice(dispute: Dispute): string | null {
  if (dispute.outcome) return null;
  if (!dispute.delivered) {
    return 'The order was never delivered, so there is no evidence to send: refund it if Stripe still can, otherwise accept.';
  }
  if (dispute.evidence === 'staged') {
    return 'Read the three files, add a note if it helps, then submit. Nobody submitting means the shop submits a day before it is due.';
  }
  return null;
}

export function DisputeList({ disputes }: { disputes: Dispute[] }) {
  const [submitting, setSubmitting] = useState<Dispute | null>(null);
  const [accepting, setAccepting] = useState<Dispute | null>(null);
  const accept = useAcceptDispute();

  const confirmAccept = () => {
    if (!accepting) return;
    accept.mutate(accepting.dispute_id, { onSettled: () => setAccepting(null) });
  };

  return (
    <>
      <ul className="dispute-list" aria-label="Disputes">
        {disputes.map((dispute) => {
          const evidence = EVIDENCE[dispute.evidence];
          const open = !dispute.outcome;
          const title = dispute.order_id ? `Order #${dispute.order_id}` : 'A payment of no order';
          return (
            <li key={dispute.dispute_id} className="dispute-list__entry" aria-label={title}>
              <div className="dispute-list__main">
                <span className="dispute-list__title">{title}</span>
                <span className="dispute-list__amount">{amount(dispute)}</span>
                <Badge tone={evidence.tone}>{evidence.label}</Badge>
                {dispute.outcome ? (
                  <Badge tone={dispute.outcome === 'won' ? 'brand' : 'danger'}>
                    {dispute.outcome === 'won' ? 'Won' : 'Lost'}
                  </Badge>
                ) : null}
              </div>
              <p className="dispute-list__meta">
                {reasonLabel(dispute.reason)} · Stripe: {dispute.status.replaceAll('_', ' ')}
                {dispute.due_by && open ? (
                  <>
                    {' · evidence due '}
                    <time dateTime={dispute.due_by}>
                      {dateFormat.format(new Date(dispute.due_by))}
                    </time>
                  </>
                ) : null}
              </p>
              {advice(dispute) ? <p className="dispute-list__advice">{advice(dispute)}</p> : null}
              {dispute.note ? (
                <p className="dispute-list__note">Note to the bank: {dispute.note}</p>
              ) : null}
              {dispute.delivered && dispute.order_id ? (
                <EvidenceFiles href={(file) => evidenceHref(dispute.dispute_id, file)} />
              ) : null}
              {open && dispute.evidence !== 'submitted' ? (
                <div className="dispute-list__actions" data-keep-clear>
                  {dispute.delivered ? (
                    <Button size="sm" onClick={() => setSubmitting(dispute)}>
                      Submit evidence
                    </Button>
                  ) : null}
                  <Button variant="secondary" size="sm" onClick={() => setAccepting(dispute)}>
                    Accept
                  </Button>
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
      {submitting ? (
        <SubmitDialog dispute={submitting} onClose={() => setSubmitting(null)} />
      ) : null}
      <ConfirmDialog
        open={accepting !== null}
        title="Accept this dispute?"
        confirmLabel="Accept dispute"
        busy={accept.isPending}
        onConfirm={confirmAccept}
        onCancel={() => setAccepting(null)}
      >
        The money stays with the buyer and the dispute closes at Stripe. This cannot be undone.
      </ConfirmDialog>
    </>
  );
}

function SubmitDialog({ dispute, onClose }: { dispute: Dispute; onClose: () => void }) {
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const submit = useSubmitDispute();

  const close = () => {
    if (!submit.isPending) onClose();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = note.trim();
    if (trimmed.length > NOTE_MAX) {
      setNoteError(`Please keep the note under ${NOTE_MAX} characters.`);
      return;
    }
    setFailure(undefined);
    submit.mutate(
      { disputeId: dispute.dispute_id, note: trimmed },
      {
        onSuccess: () => onClose(),
        onError: (error) => {
          const fields = fieldErrors(error);
          if (fields.note) setNoteError(fields.note);
          else setFailure(errorMessage(error));
        },
      },
    );
  };

  return (
    <Modal open onClose={close} title="Submit the evidence?">
      <form className="dispute-submit" aria-label="Submit evidence" noValidate onSubmit={onSubmit}>
        <p className="dispute-submit__lead">
          The delivery record, the messages and the refund policy go to the bank with the text
          fields. It can be sent once.
        </p>
        <Field
          label="Note to the bank"
          optional
          hint="Added to the evidence's summary."
          error={noteError}
          announceError
        >
          {(control) => (
            <textarea
              {...control}
              className="form-control"
              rows={4}
              value={note}
              onChange={(event) => {
                setNote(event.currentTarget.value);
                setNoteError(undefined);
              }}
            />
          )}
        </Field>
        {failure ? (
          <p role="alert" className="dispute-submit__error">
            {failure}
          </p>
        ) : null}
        <div className="dispute-submit__actions">
          <Button variant="secondary" onClick={close} disabled={submit.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={submit.isPending}>
            Submit evidence
          </Button>
        </div>
      </form>
    </Modal>
  );
}
