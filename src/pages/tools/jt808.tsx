import { Alert, Button, Card, Empty, Form, Input, Select, Space, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useT } from '../../session/useT';
import { frameLineNumbers, frameLines, formatOffset, MAX_FRAMES, summarize, TZ_OFFSETS, type DecodeAnswer } from './jt808Format';
import { decodeFrames } from '../../services/tools';
import { FrameCard } from './Jt808View';

interface Values {
  frames: string;
  tzOffsetMinutes: number;
  verifyChecksum: boolean;
}

const DEFAULT_TZ = 480; // the standard's and most terminals' clock: GMT+8

/**
 * Support tool: paste JT/T 808 frames (hex, one per line) and read each decoded — header, body,
 * location alarm and status bits by name — or why it could not be.
 */
export default function Jt808Page() {
  const t = useT();
  const [form] = Form.useForm<Values>();
  const [answer, setAnswer] = useState<{ data: DecodeAnswer; tzOffsetMinutes: number; lines: number[] } | null>(null);
  const [loading, setLoading] = useState(false);

  const onFinish = async (v: Values) => {
    setLoading(true);
    try {
      const data = await decodeFrames(v.frames, v.tzOffsetMinutes, v.verifyChecksum);
      setAnswer({ data, tzOffsetMinutes: v.tzOffsetMinutes, lines: frameLineNumbers(v.frames) });
    } catch {
      // The request layer has shown the failure (SPEC.md §8).
    } finally {
      setLoading(false);
    }
  };

  const counts = answer ? summarize(answer.data.results) : null;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="jt808-page">
      <Card title={t('console.jt808.title')}>
        <Form
          form={form}
          layout="vertical"
          initialValues={{ frames: '', tzOffsetMinutes: DEFAULT_TZ, verifyChecksum: true }}
          onFinish={onFinish}
          onFinishFailed={() => setAnswer(null)}
        >
          <Form.Item
            name="frames"
            label={t('console.jt808.frames')}
            extra={t('console.jt808.framesHelp')}
            rules={[
              {
                validator: (_, value: string) =>
                  frameLines(value ?? '').length ? Promise.resolve() : Promise.reject(new Error(t('console.jt808.required'))),
              },
            ]}
          >
            <Input.TextArea
              rows={6}
              spellCheck={false}
              placeholder={t('console.jt808.placeholder')}
              style={{ fontFamily: 'monospace' }}
              data-testid="jt808-input"
            />
          </Form.Item>
          <Space size={24} wrap align="end">
            <Form.Item name="tzOffsetMinutes" label={t('console.jt808.timezone')} style={{ marginBottom: 0 }}>
              <Select style={{ width: 140 }} options={TZ_OFFSETS.map((m) => ({ value: m, label: formatOffset(m) }))} />
            </Form.Item>
            <Form.Item name="verifyChecksum" label={t('console.jt808.verifyChecksum')} valuePropName="checked" style={{ marginBottom: 0 }}>
              <Switch />
            </Form.Item>
            <Space>
              <Button type="primary" htmlType="submit" loading={loading} data-testid="jt808-decode">
                {t('console.jt808.decode')}
              </Button>
              <Button
                onClick={() => {
                  form.resetFields();
                  setAnswer(null);
                }}
              >
                {t('console.jt808.clear')}
              </Button>
            </Space>
          </Space>
        </Form>
      </Card>
      {answer && counts ? (
        <Space direction="vertical" size={12} style={{ width: '100%' }}>
          <Typography.Text strong data-testid="jt808-summary">
            {t('console.jt808.summary', counts)}
          </Typography.Text>
          {answer.data.truncated && <Alert type="warning" showIcon message={t('console.jt808.truncated', { max: MAX_FRAMES })} />}
          {answer.data.results.map((r, i) => (
            <FrameCard key={i} result={r} line={answer.lines[i] ?? i + 1} ctx={{ t, tzOffsetMinutes: answer.tzOffsetMinutes }} />
          ))}
        </Space>
      ) : (
        <Empty description={t('console.jt808.empty')} />
      )}
    </Space>
  );
}
