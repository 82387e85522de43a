import { Alert, Descriptions } from 'antd';
import {
  answeredAttributes,
  answeredDoorsLocked,
  answeredPhoto,
  ATTRIBUTE_FIELDS,
  COMMAND_RESULTS,
  PHOTO_RESULTS,
  type TerminalCommand,
} from '../../services/commands';
import { upgradeResultOf } from '../../services/upgrades';
import { useT } from '../../session/useT';

/** Bit fields shown as the raw number in hex (their bits are named in docs/terminals.md). */
const HEX_FIELDS = new Set<string>(['terminalType', 'gnss', 'comms']);
const shown = (field: string, v: string | number) =>
  typeof v === 'number' && HEX_FIELDS.has(field) ? `0x${v.toString(16).padStart(2, '0')}` : String(v);

/**
 * What the terminal answered to a command: its attributes (0x0107), the doors' state (0x0500), the
 * photos it took (0x0805), or
 * the general answer's result (0x0001: done, failed, message error, not supported).
 */
export default function CommandAnswer({ command }: { command: TerminalCommand }) {
  const t = useT();
  const attributes = answeredAttributes(command);
  if (attributes)
    return (
      <Descriptions size="small" column={1} bordered title={t('console.command.answer')} data-testid="command-attributes">
        {ATTRIBUTE_FIELDS.map((f) => (
          <Descriptions.Item key={f} label={t(`console.command.attribute.${f}`)}>
            <span data-testid={`attribute-${f}`}>{shown(f, attributes[f])}</span>
          </Descriptions.Item>
        ))}
      </Descriptions>
    );
  const upgraded = upgradeResultOf(command.response);
  if (upgraded)
    return (
      <Alert
        type={upgraded === 'upgraded' ? 'success' : 'warning'}
        showIcon
        data-testid="command-answer"
        message={`${t('console.command.answer')}: ${t(`console.command.upgradeResults.${upgraded}`)}`}
      />
    );
  const photo = answeredPhoto(command);
  const photoResult = PHOTO_RESULTS.find((r) => r === photo?.result);
  if (photo && photoResult)
    return (
      <Alert
        type={photoResult === 'ok' ? 'success' : 'warning'}
        showIcon
        data-testid="command-answer"
        message={`${t('console.command.answer')}: ${t(`console.command.photoResults.${photoResult}`)}`}
        description={
          photo.mediaIds.length
            ? (command.request as { save?: boolean } | undefined)?.save
              ? `${t('console.command.photoIds', { ids: photo.mediaIds.join(', ') })} · ${t('console.command.photoKept')}`
              : t('console.command.photoIds', { ids: photo.mediaIds.join(', ') })
            : undefined
        }
      />
    );
  const locked = answeredDoorsLocked(command);
  if (locked !== null)
    return (
      <Alert
        type="info"
        showIcon
        data-testid="command-answer"
        message={t(locked ? 'console.command.doorsLocked' : 'console.command.doorsUnlocked')}
      />
    );
  const result = COMMAND_RESULTS.find((r) => r === command.result);
  if (result !== undefined)
    return (
      <Alert
        type={result === 0 ? 'success' : 'warning'}
        showIcon
        data-testid="command-answer"
        message={`${t('console.command.answer')}: ${t(`console.command.results.${result}`)}`}
      />
    );
  return null;
}
