import { Alert, Button, Form, Input, Modal, Radio, Space, Tag } from 'antd';
import { paramList, paramValues } from '../../../schemas/kit/terminalParams';
import ParamsForm, { type ParamsValues } from './ParamsForm';
import { useState } from 'react';
import Permission from '../../session/Permission';
import {
  answeredParams,
  closedUnanswered,
  commandById,
  sendCommand,
  COMMAND_CODE,
  type CommandBody,
  type TerminalCommand,
} from '../../services/commands';
import { failureOf } from '../../services/http/failureOf';
import { useT } from '../../session/useT';

/** Follows a pending command this many times (2 s apart) after the first wait; then it shows as pending. */
const FOLLOW_TRIES = 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const STATUS_COLOUR: Record<string, string> = {
  pending: 'processing',
  acked: 'success',
  failed: 'error',
  timeout: 'warning',
};

/**
 * Locate now, a text message, the terminal parameters or engine control for one terminal (from the
 * vehicle card and the terminal row), with the command's status until it answers. The parameters
 * form can also be filled with what the terminal answers to a parameter query (read from terminal).
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
  const [kind, setKind] = useState<Exclude<CommandBody['kind'], 'readParams'>>('location');
  const [text, setText] = useState('');
  const [control, setControl] = useState<'engineStop' | 'engineResume'>('engineResume');
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
    } else body = kind === 'text' ? { kind, text } : kind === 'control' ? { kind, command: control } : { kind };
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
            <Radio.Button value="location">{t('console.command.location')}</Radio.Button>
            <Radio.Button value="text">{t('console.command.text')}</Radio.Button>
            <Radio.Button value="params">{t('console.command.params')}</Radio.Button>
            <Radio.Button value="control">{t('console.command.control')}</Radio.Button>
          </Radio.Group>
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
            disabled={kind === 'text' && !text.trim()}
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
          {error && <Alert type="error" showIcon message={error} />}
        </Space>
      </Modal>
    </Permission>
  );
}
