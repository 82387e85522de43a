import { Alert, Card, Descriptions, Space, Tag, Typography } from 'antd';
import type { Translate } from '../../../schemas/kit/i18n';
import { bodyNodes, failureText, headerRows, isFailure, type FormatContext, type FrameResult, type ViewNode } from './jt808Format';

/** One row of a body: a value, named bits as tags (with the raw word), or a nested group. */
function NodeValue({ node, t }: { node: ViewNode; t: Translate }) {
  if (node.kind === 'value') return <Typography.Text style={{ wordBreak: 'break-all' }}>{node.value}</Typography.Text>;
  if (node.kind === 'flags') {
    return (
      <Space size={[4, 4]} wrap>
        <Typography.Text code>{node.raw}</Typography.Text>
        {node.names.length ? (
          node.names.map((n) => <Tag key={n}>{n}</Tag>)
        ) : (
          <Typography.Text type="secondary">{t('console.jt808.none')}</Typography.Text>
        )}
      </Space>
    );
  }
  return <NodeTable nodes={node.children} t={t} />;
}

export function NodeTable({ nodes, t }: { nodes: ViewNode[]; t: Translate }) {
  return (
    <Descriptions
      bordered
      size="small"
      column={1}
      labelStyle={{ width: 180, whiteSpace: 'nowrap' }}
      items={nodes.map((n, i) => ({ key: `${i}-${n.label}`, label: n.label, children: <NodeValue node={n} t={t} /> }))}
    />
  );
}

/** One pasted frame: its header and body, or its error on its own line. */
export function FrameCard({ result, line, ctx }: { result: FrameResult; line: number; ctx: FormatContext }) {
  const { t } = ctx;
  // Numbered by its line in the pasted text (blank lines counted), so it can be found there.
  const title = t('console.jt808.frameLine', { n: line });
  if (isFailure(result)) {
    const { title: what, detail } = failureText(result, t);
    return (
      <Alert
        type="error"
        showIcon
        data-testid="jt808-error"
        message={`${title} · ${t('console.jt808.failed')}: ${what}`}
        // The cause is said above in the reader's language; the decoder's own text follows, marked as such, for support.
        description={
          <>
            <Typography.Text type="secondary">{t('console.jt808.decoderDetail')} </Typography.Text>
            <Typography.Text code style={{ wordBreak: 'break-all' }}>
              {detail}
            </Typography.Text>
          </>
        }
      />
    );
  }
  const body = bodyNodes(result, ctx);
  return (
    <Card size="small" title={title} data-testid="jt808-frame">
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, md: 4 }}
        items={headerRows(result, ctx).map((r, i) => ({ key: i, label: r.label, children: r.value }))}
      />
      <Typography.Title level={5} style={{ marginTop: 8 }}>
        {t('console.jt808.body')}
      </Typography.Title>
      {body.length ? <NodeTable nodes={body} t={t} /> : <Typography.Text type="secondary">{t('console.jt808.emptyBody')}</Typography.Text>}
    </Card>
  );
}
