import { Alert, Button, Form, Input, InputNumber, Modal, Radio, Space, Tag, Typography } from 'antd';
import CommandAnswer from './CommandAnswer';
import FencePicker, { type FenceChoice } from './FencePicker';
import PhotoForm, { DEFAULT_PHOTO } from './PhotoForm';
import TakenPhotos from './TakenPhotos';
import UpgradePicker from './UpgradePicker';
import { UPGRADE_CODE } from '../../services/upgrades';
import { usePermission } from '../../session/navigationStore';
import { paramList, paramValues } from '../../../schemas/kit/terminalParams';
import ParamsForm, { type ParamsValues } from './ParamsForm';
import { useState } from 'react';
import Permission from '../../session/Permission';
import {
  answeredParams,
  answeredPhoto,
  closedUnanswered,
  commandById,
  sendCommand,
  COMMAND_CHOICES,
  COMMAND_CODE,
  type CommandBody,
  type CommandChoice,
  type PhotoRequest,
  type TerminalCommand,
} from '../../services/commands';
import { failureOf } from '../../services/http/failureOf';
import { useT } from '../../session/useT';

/** Follows a pending command this many times (2 s apart) after the first wait; then it shows as pending. */
const FOLLOW_TRIES = 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A take-photo command answered with photos that the terminal uploads (not kept on it). */
const photosComing = (c: TerminalCommand) =>
  (answeredPhoto(c)?.mediaIds.length ?? 0) > 0 && (c.request as { save?: boolean } | undefined)?.save !== true;

const STATUS_COLOUR: Record<string, string> = {
  pending: 'processing',
  acked: 'success',
  failed: 'error',
  timeout: 'warning',
};

/**
 * Locate now, a text message, the terminal parameters, engine control, the terminal's attributes,
 * a temporary tracking, the doors, a terminal-side fence or a photo for one terminal (from the
 * vehicle card and the terminal row), with the command's status until it answers and what it
 * answered (a photo's pictures as they arrive). The
 * parameters form can also be filled with what the terminal answers to a parameter query.
 */
export default function CommandButton({
  terminalId,
  size = 'small',
  testId = 'card-command',
}: {
  terminalId: number | null;
  size?: 'small' | 'middle';
  /** The opening button's test id (the card's and the row's differ). */
  testId?: string;
}) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState<CommandChoice>('location');
  const [text, setText] = useState('');
  const [control, setControl] = useState<'engineStop' | 'engineResume'>('engineResume');
  const [tracking, setTracking] = useState<{ interval: number | null; minutes: number | null }>({ interval: 10, minutes: 30 });
  const [doors, setDoors] = useState<'lock' | 'unlock'>('lock');
  const [fence, setFence] = useState<FenceChoice>({ fenceId: null, action: 'set' });
  const [packageId, setPackageId] = useState<number | null>(null);
  const [photo, setPhoto] = useState<PhotoRequest>(DEFAULT_PHOTO);
  const canUpgrade = usePermission(UPGRADE_CODE);
  const [sent, setSent] = useState<TerminalCommand | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [paramsForm] = Form.useForm<ParamsValues>();

  const send = async () => {
    if (terminalId === null) return;
    let body: CommandBody;
    if (kind === 'params') {
      // Field errors show on their fields; nothing is sent while one stands.
      const values = await paramsForm.validateFields().catch(() => null);
      if (!values) return;
      const params = paramList(values);
      if (!params.length) {
        setError(t('console.command.paramsEmpty'));
        return;
      }
      body = { kind, params };
    } else if (kind === 'text') body = { kind, text };
    else if (kind === 'control') body = { kind, command: control };
    else if (kind === 'tracking') body = { kind, interval: tracking.interval ?? 0, duration: (tracking.minutes ?? 0) * 60 };
    else if (kind === 'doors') body = { kind: 'vehicleControl', doors };
    else if (kind === 'fence') {
      if (fence.fenceId === null) return;
      body = { kind, fenceId: fence.fenceId, action: fence.action };
    } else if (kind === 'photo') body = { kind, ...photo };
    else if (kind === 'upgrade') {
      if (packageId === null) return;
      body = { kind, packageId };
    } else body = { kind };
    await run(body);
  };

  /** Sends, follows the command until it is answered, and shows its status; the final state or null. */
  const run = async (body: CommandBody): Promise<TerminalCommand | null> => {
    if (terminalId === null) return null;
    setBusy(true);
    setError(null);
    setSent(null);
    try {
      let c = await sendCommand(terminalId, body);
      setSent(c);
      for (let i = 0; c.status === 'pending' && i < FOLLOW_TRIES; i++) {
        await sleep(2000);
        c = await commandById(terminalId, c.id);
        setSent(c);
      }
      if (closedUnanswered(c)) setError(t('console.command.sessionClosed'));
      return c;
    } catch (e) {
      const f = failureOf(e);
      setError(f.status === 406 ? t('console.command.offline') : f.message || t('console.command.failed'));
      return null;
    } finally {
      setBusy(false);
    }
  };

  /** Reads every parameter from the terminal (0x8104) and shows the named ones in the form. */
  const readBack = async () => {
    const c = await run({ kind: 'readParams' });
    const answered = c && answeredParams(c);
    if (!answered) return;
    paramsForm.resetFields();
    paramsForm.setFieldsValue(paramValues(answered));
  };

  return (
    <Permission code={COMMAND_CODE}>
      <Button size={size} disabled={terminalId === null} onClick={() => setOpen(true)} data-testid={testId}>
        {t('console.monitor.command')}
      </Button>
      <Modal open={open} title={t('console.command.title')} onCancel={() => setOpen(false)} footer={null} destroyOnClose>
        <Space direction="vertical" style={{ width: '100%' }}>
          <Radio.Group value={kind} onChange={(e) => setKind(e.target.value)} optionType="button">
            {COMMAND_CHOICES.filter((c) => c !== 'upgrade' || canUpgrade).map((c) => (
              <Radio.Button key={c} value={c}>
                <span data-testid={`command-kind-${c}`}>{t(`console.command.${c}`)}</span>
              </Radio.Button>
            ))}
          </Radio.Group>
          {kind === 'attributes' && <Typography.Text type="secondary">{t('console.command.attributesHint')}</Typography.Text>}
          {kind === 'tracking' && (
            <Space direction="vertical">
              <Typography.Text type="secondary">{t('console.command.trackingHint')}</Typography.Text>
              <Space wrap>
                {t('console.command.trackingInterval')}
                <InputNumber
                  min={0}
                  max={65535}
                  precision={0}
                  value={tracking.interval}
                  onChange={(interval) => setTracking({ ...tracking, interval })}
                  data-testid="tracking-interval"
                />
                {t('console.command.trackingDuration')}
                <InputNumber
                  min={0}
                  max={71582788}
                  precision={0}
                  value={tracking.minutes}
                  onChange={(minutes) => setTracking({ ...tracking, minutes })}
                  data-testid="tracking-duration"
                />
              </Space>
            </Space>
          )}
          {kind === 'doors' && (
            <Radio.Group value={doors} onChange={(e) => setDoors(e.target.value)}>
              <Radio value="lock">{t('console.command.doorsLock')}</Radio>
              <Radio value="unlock">{t('console.command.doorsUnlock')}</Radio>
            </Radio.Group>
          )}
          {kind === 'fence' && <FencePicker value={fence} onChange={setFence} />}
          {kind === 'photo' && <PhotoForm value={photo} onChange={setPhoto} />}
          {kind === 'upgrade' && <UpgradePicker value={packageId} onChange={setPackageId} refresh={sent?.status} />}
          {kind === 'text' && (
            <Input.TextArea
              maxLength={400}
              showCount
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder={t('console.command.textHint')}
            />
          )}
          {kind === 'params' && (
            <Button loading={busy} onClick={() => void readBack()} title={t('console.command.readParamsHint')} data-testid="params-read">
              {t('console.command.readParams')}
            </Button>
          )}
          {kind === 'params' && <ParamsForm form={paramsForm} />}
          {kind === 'control' && (
            <Radio.Group value={control} onChange={(e) => setControl(e.target.value)}>
              <Radio value="engineResume">{t('console.command.engineResume')}</Radio>
              <Radio value="engineStop">{t('console.command.engineStop')}</Radio>
            </Radio.Group>
          )}
          <Button
            type="primary"
            loading={busy}
            disabled={
              (kind === 'text' && !text.trim()) ||
              (kind === 'fence' && fence.fenceId === null) ||
              (kind === 'upgrade' && packageId === null) ||
              (kind === 'tracking' && (tracking.interval === null || tracking.minutes === null))
            }
            onClick={() => void send()}
            data-testid="command-send"
          >
            {t('console.command.send')}
          </Button>
          {sent && (
            <Space data-testid="command-status" data-status={sent.status}>
              {t('console.command.status')}
              <Tag color={STATUS_COLOUR[sent.status] ?? 'default'}>{t(`console.command.statuses.${sent.status}`)}</Tag>
            </Space>
          )}
          {sent && sent.status !== 'pending' && <CommandAnswer command={sent} />}
          {sent && terminalId !== null && photosComing(sent) && <TakenPhotos terminalId={terminalId} commandId={sent.id} />}
          {error && <Alert type="error" showIcon message={error} />}
        </Space>
      </Modal>
    </Permission>
  );
}
