import { Alert, Badge, Button, Card, Group, Loader, Modal, SegmentedControl, Stack, Text, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import { formatWhatsapp } from '../../../domain/phone.js';
import { APPLICATION_LIMITS, type SellerApplication, type SellerApplicationStatus } from '../../../domain/seller-application-rules.js';
import { isApiError } from '../../api/client';
import { useDecideApplication, useSellerApplications } from '../../api/seller-applications';
import { useTranslation } from '../../i18n';
import { failureReason } from '../../lib/api-errors';
import { formatDate } from '../../lib/dates';

type Filter = SellerApplicationStatus | 'all';
const FILTERS: readonly Filter[] = ['pending', 'approved', 'declined', 'all'];
const STATUS_COLOR: Record<SellerApplicationStatus, string> = { pending: 'yellow', approved: 'green', declined: 'red' };

/** The body of 'Solicitudes'; mounted only while the window is open. Pending first, newest first. */
export function ApplicationsManager() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<Filter>('pending');
  const list = useSellerApplications({ enabled: true, status: filter });
  const [declining, setDeclining] = useState<SellerApplication | null>(null);

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('admin.applications.intro')}
      </Text>
      <SegmentedControl
        aria-label={t('admin.applications.filterLabel')}
        value={filter}
        onChange={(value) => setFilter(value as Filter)}
        data={FILTERS.map((f) => ({ value: f, label: t(`admin.applications.filters.${f}`) }))}
        fullWidth
      />
      {list.isPending ? (
        <Group justify="center" p="lg">
          <Loader aria-label={t('admin.applications.loading')} />
        </Group>
      ) : list.isError ? (
        <Alert color="red" variant="light" role="alert">
          {t('admin.applications.loadFailed')}
        </Alert>
      ) : list.data.items.length === 0 ? (
        <Text c="dimmed" ta="center" p="lg">
          {t('admin.applications.empty')}
        </Text>
      ) : (
        <Stack gap="sm">
          {list.data.items.map((application) => (
            <ApplicationCard key={application.id} application={application} onDecline={() => setDeclining(application)} />
          ))}
        </Stack>
      )}
      <DeclineWindow application={declining} onClose={() => setDeclining(null)} />
    </Stack>
  );
}

function nameOf(application: SellerApplication): string {
  return application.applicantName ?? application.applicantEmail;
}

function ApplicationCard({ application, onDecline }: { application: SellerApplication; onDecline: () => void }) {
  const { t } = useTranslation();
  const decide = useDecideApplication();
  const titleId = `application-${application.id}`;

  async function approve() {
    try {
      const done = await decide.mutateAsync({ id: application.id, verb: 'approve' });
      notifications.show({
        color: 'green',
        title: t('admin.applications.approved'),
        message: t('admin.applications.approvedMessage', { name: application.businessName, companyId: done.companyId ?? '' }),
      });
    } catch (error) {
      const reason = failureReason(error, { networkMessage: t('common.networkError') }) ?? t('common.networkError');
      notifications.show({ color: 'red', message: t('admin.applications.decideFailed', { reason }), autoClose: 10_000 });
    }
  }

  return (
    <Card withBorder radius="md" padding="md" component="article" aria-labelledby={titleId} data-testid="application">
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Title order={3} size="h5" id={titleId} style={{ overflowWrap: 'anywhere' }}>
            {application.businessName}
          </Title>
          <Badge color={STATUS_COLOR[application.status]} variant="light">
            {t(`admin.applications.status.${application.status}`)}
          </Badge>
        </Group>
        <Fact label={t('admin.applications.applicant')} value={`${nameOf(application)} · ${application.applicantEmail}`} />
        <Fact label={t('admin.applications.city')} value={application.city} />
        <Fact label={t('admin.applications.whatsapp')} value={formatWhatsapp(application.whatsapp) ?? application.whatsapp} />
        <Fact label={t('admin.applications.description')} value={application.description} />
        {application.rfc && <Fact label={t('admin.applications.rfc')} value={application.rfc} />}
        <Fact label={t('admin.applications.sentAt')} value={formatDate(application.createdAt)} />
        {application.decidedAt !== null && <Fact label={t('admin.applications.decidedAt')} value={formatDate(application.decidedAt)} />}
        {application.companyId && <Fact label={t('admin.applications.company')} value={application.companyId} />}
        {application.declineReason && <Fact label={t('admin.applications.reason')} value={application.declineReason} />}
        {application.status === 'pending' && (
          <Group gap="sm" mt="xs">
            <Button color="green" onClick={approve} loading={decide.isPending}>
              {t('admin.applications.approve')}
            </Button>
            <Button color="red" variant="light" onClick={onDecline} disabled={decide.isPending}>
              {t('admin.applications.decline')}
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}>
      <Text span fw={600} size="sm">
        {label}:
      </Text>{' '}
      {value}
    </Text>
  );
}

/** *Rechazar*: the reason is required (5 to 500 characters); the applicant reads it on /vender. */
function DeclineWindow({ application, onClose }: { application: SellerApplication | null; onClose: () => void }) {
  const { t } = useTranslation();
  const decide = useDecideApplication();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    setReason('');
    setError(null);
    onClose();
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!application || decide.isPending) return;
    try {
      await decide.mutateAsync({ id: application.id, verb: 'decline', reason });
      notifications.show({
        color: 'green',
        title: t('admin.applications.declined'),
        message: t('admin.applications.declinedMessage', { name: nameOf(application) }),
      });
      close();
    } catch (failure) {
      if (isApiError(failure) && failure.fields.reason) setError(failure.fields.reason);
      else setError(failureReason(failure, { networkMessage: t('common.networkError') }) ?? t('common.networkError'));
    }
  }

  return (
    <Modal
      stackId="applications-decline"
      opened={application !== null}
      onClose={close}
      title={application ? t('admin.applications.declineTitle', { name: application.businessName }) : ''}
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('admin.applications.declineHint')}
          </Text>
          <Textarea
            label={t('admin.applications.reasonLabel')}
            value={reason}
            onChange={(e) => {
              setReason(e.currentTarget.value);
              setError(null);
            }}
            error={error}
            maxLength={APPLICATION_LIMITS.reason.max}
            autosize
            minRows={3}
            required
            data-autofocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              {t('admin.applications.cancel')}
            </Button>
            <Button type="submit" color="red" loading={decide.isPending}>
              {t('admin.applications.confirmDecline')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
