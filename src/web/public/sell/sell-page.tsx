import { Alert, Button, Card, Skeleton, Stack, Text, Textarea, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import type { Me } from '../../../domain/api-types.js';
import { canUsePanel } from '../../../domain/role-rules.js';
import { ADMIN_HOME, HOME_PATH, LIVE_HUB_PATH } from '../../../domain/screens.js';
import { APPLICATION_LIMITS, type SellerApplication } from '../../../domain/seller-application-rules.js';
import { isApiError } from '../../api/client';
import { useMe } from '../../api/me';
import { useApplyToSell, useSellerApplications } from '../../api/seller-applications';
import { AlertIcon } from '../../components/icons';
import { LoadFailed, SignInCard } from '../../components/page-states';
import { addPageStrings, useTranslation } from '../../i18n';
import sellStrings from '../../i18n/es-MX.json?section=sell';
import { apiErrorText } from '../../lib/api-errors';
import { DATE_FORMAT, formatDate } from '../../lib/dates';
import { serverFieldErrors } from '../../lib/field-errors';
import { PublicLayout } from '../public-layout';

// This page's own strings, not in the first load (i18n/parts.ts).
addPageStrings(sellStrings);

/** Where the panel's next steps are: *Pagos* holds the Mercado Pago connection; the Live Hub makes a show. */
const CONNECT_PAYMENTS_PATH = `${ADMIN_HOME}?window=payments`;
const FIRST_SHOW_PATH = LIVE_HUB_PATH;

const FIELDS = ['businessName', 'city', 'whatsapp', 'description', 'rfc'] as const;
type Field = (typeof FIELDS)[number];
const isField = (name: string): name is Field => (FIELDS as readonly string[]).includes(name);

/** /vender, *Quiero vender*: an account without a seller role asks to sell, and follows its request here. Phone first. */
export function SellPage() {
  const { t } = useTranslation();
  return (
    <PublicLayout size="xs">
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={1} size="h2">
            {t('sell.title')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('sell.intro')}
          </Text>
        </Stack>
        <SellContent />
      </Stack>
    </PublicLayout>
  );
}

function SellContent() {
  const { t } = useTranslation();
  const me = useMe();
  const sells = Boolean(me.data && canUsePanel(me.data.roles));
  const mine = useSellerApplications({ enabled: Boolean(me.data) && !sells });
  if (me.isPending || (me.data && !sells && mine.isPending)) return <SellSkeleton />;
  if (me.isError && me.data === undefined) return <LoadFailed title={t('sell.loadFailed')} onRetry={() => void me.refetch()} />;
  if (!me.data) return <SignInCard title={t('sell.signInTitle')} text={t('sell.signInText')} action={t('sell.signIn')} testId="sell-sign-in" />;
  if (sells) return <Approved />;
  if (mine.isError && mine.data === undefined) return <LoadFailed title={t('sell.loadFailed')} onRetry={() => void mine.refetch()} />;
  return <Applicant me={me.data} latest={mine.data?.items[0] ?? null} />;
}

function Applicant({ me, latest }: { me: Me; latest: SellerApplication | null }) {
  const [justSent, setJustSent] = useState(false);
  if (latest?.status === 'pending') return <Pending application={latest} justSent={justSent} />;
  // Approved but the session still says buyer: the roles arrive with the next read of `me`.
  if (latest?.status === 'approved') return <Approved />;
  const waiting = latest?.status === 'declined' && latest.reapplyAt !== null && latest.reapplyAt > Date.now();
  return (
    <Stack gap="md">
      {latest?.status === 'declined' && <Declined application={latest} />}
      {!waiting && <ApplicationForm me={me} onSent={() => setJustSent(true)} />}
    </Stack>
  );
}

function ApplicationForm({ me, onSent }: { me: Me; onSent: () => void }) {
  const { t } = useTranslation();
  const apply = useApplyToSell();
  const [values, setValues] = useState<Record<Field, string>>({
    businessName: me.profile.companyName ?? '',
    city: '',
    whatsapp: me.profile.whatsappLocal ?? '',
    description: '',
    rfc: '',
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);

  const set = (field: Field) => (event: { currentTarget: { value: string } }) => {
    const value = event.currentTarget.value;
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (apply.isPending) return;
    setFailure(null);
    const whatsapp = me.profile.whatsapp && values.whatsapp.trim() === me.profile.whatsappLocal ? me.profile.whatsapp : values.whatsapp;
    try {
      await apply.mutateAsync({ ...values, whatsapp, rfc: values.rfc.trim() || null });
      onSent();
    } catch (error) {
      if (isApiError(error) && Object.keys(error.fields).length > 0) {
        const split = serverFieldErrors(error.fields, isField);
        setErrors(split.fields);
        setFailure(split.others[0] ?? null);
        return;
      }
      setFailure(apiErrorText(error, { networkMessage: t('common.networkError'), fallback: t('sell.sendFailed') }));
    }
  }

  return (
    <Card withBorder radius="lg" padding="lg" component="form" onSubmit={submit} noValidate aria-labelledby="sell-form-title" data-testid="sell-form">
      <Stack gap="sm">
        <Title order={2} size="h4" id="sell-form-title">
          {t('sell.formTitle')}
        </Title>
        <TextInput
          label={t('sell.fields.businessName')}
          description={t('sell.fields.businessNameHint')}
          value={values.businessName}
          onChange={set('businessName')}
          error={errors.businessName}
          maxLength={APPLICATION_LIMITS.businessName.max}
          autoComplete="organization"
          required
          size="md"
        />
        <TextInput
          label={t('sell.fields.city')}
          value={values.city}
          onChange={set('city')}
          error={errors.city}
          maxLength={APPLICATION_LIMITS.city.max}
          autoComplete="address-level2"
          required
          size="md"
        />
        <TextInput
          label={t('sell.fields.whatsapp')}
          description={t('sell.fields.whatsappHint')}
          value={values.whatsapp}
          onChange={set('whatsapp')}
          error={errors.whatsapp}
          type="tel"
          inputMode="tel"
          autoComplete="tel-national"
          required
          size="md"
        />
        <Textarea
          label={t('sell.fields.description')}
          description={t('sell.fields.descriptionHint')}
          value={values.description}
          onChange={set('description')}
          error={errors.description}
          maxLength={APPLICATION_LIMITS.description.max}
          autosize
          minRows={3}
          required
          size="md"
        />
        <TextInput
          label={t('sell.fields.rfc')}
          description={t('sell.fields.rfcHint')}
          value={values.rfc}
          onChange={set('rfc')}
          error={errors.rfc}
          maxLength={20}
          autoCapitalize="characters"
          size="md"
        />
        {failure && (
          <Alert color="red" variant="light" icon={<AlertIcon />} role="alert">
            {failure}
          </Alert>
        )}
        <Button type="submit" size="lg" fullWidth loading={apply.isPending}>
          {t('sell.send')}
        </Button>
      </Stack>
    </Card>
  );
}

function Pending({ application, justSent }: { application: SellerApplication; justSent: boolean }) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="lg" padding="lg" data-testid="sell-pending" role="status">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {justSent ? t('sell.sentTitle') : t('sell.pendingTitle')}
        </Title>
        <Text size="sm">{t('sell.pendingText', { name: application.businessName, date: formatDate(application.createdAt, DATE_FORMAT) })}</Text>
        <Button component="a" href={HOME_PATH} variant="light">
          {t('sell.goHome')}
        </Button>
      </Stack>
    </Card>
  );
}

function Declined({ application }: { application: SellerApplication }) {
  const { t } = useTranslation();
  const again = application.reapplyAt;
  const waiting = again !== null && again > Date.now();
  return (
    <Alert color="orange" variant="light" icon={<AlertIcon />} title={t('sell.declinedTitle')} data-testid="sell-declined">
      <Stack gap={6}>
        <Text size="sm">{t('sell.declinedReason', { reason: application.declineReason ?? '' })}</Text>
        {waiting && again !== null ? (
          <Text size="sm" fw={600}>
            {t('sell.reapplyOn', { date: formatDate(again, DATE_FORMAT) })}
          </Text>
        ) : (
          <Text size="sm">{t('sell.reapplyNow')}</Text>
        )}
      </Stack>
    </Alert>
  );
}

function Approved() {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="lg" padding="lg" data-testid="sell-approved">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('sell.approvedTitle')}
        </Title>
        <Text size="sm">{t('sell.approvedText')}</Text>
        <Button component="a" href={ADMIN_HOME} size="lg" fullWidth>
          {t('sell.goPanel')}
        </Button>
        <Text size="sm" fw={600}>
          {t('sell.nextSteps')}
        </Text>
        <Button component="a" href={CONNECT_PAYMENTS_PATH} variant="light" fullWidth>
          {t('sell.stepConnect')}
        </Button>
        <Button component="a" href={FIRST_SHOW_PATH} variant="light" fullWidth>
          {t('sell.stepFirstShow')}
        </Button>
      </Stack>
    </Card>
  );
}

function SellSkeleton() {
  const { t } = useTranslation();
  return (
    <Stack gap="md" role="status" aria-live="polite">
      <VisuallyHidden>{t('sell.loading')}</VisuallyHidden>
      <Skeleton h={24} w="50%" />
      <Skeleton h={320} radius="lg" />
    </Stack>
  );
}
