import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Space, Spin, Table, Typography, Upload } from 'antd';
import { useReducer, useRef, useState } from 'react';
import { cancelProgress, type RowProgress } from '../../services/progress';
import { useNumberFormat } from '../charts/useNumberFormat';
import { useRowProgress } from './useRowProgress';
import { reportFailure } from '../../services/http/config';
import { failureOf } from '../../services/http/failureOf';
import { feedback } from '../../services/http/feedback';
import { useT } from '../../session/useT';
import { templateFileName } from './fileNames';
import { itemTitle } from '../schema/labels';
import { entityTitle, fieldLabel } from './labels';
import { fileProblem, humanSize, SHEET_EXTENSIONS, SHEET_MAX_BYTES, SHEET_MAX_ROWS } from './limits';
import { errorLines, isSheetReport, linesPagination, type ErrorLine, type SheetReport } from './report';
import ImportPlan from './ImportPlan';
import { downloadSheet, uploadSheet } from '../../services/sheet';
import { saveBlob } from '../../utils/saveBlob';
import type { UploadFlow } from './sheetCalls';
import { initialUpload, uploadStep } from './uploadState';

interface Props {
  open: boolean;
  flow: UploadFlow;
  entity: string;
  onClose: () => void;
  /** After rows were stored: the list reloads. */
  onDone: () => void;
}

/** Statuses the dialog explains itself (the file or its rows); others get the console's usual handling. */
const SHOWN_HERE = new Set([400, 406, 413]);

/**
 * Import or renewal by spreadsheet (SPEC §9): template, file (xlsx only, size-checked first), the
 * server's check of every row shown as a table of row / field / message in the user's language, or
 * once all are valid the preview of what the import creates and updates (ImportPlan) —
 * nothing is stored until every row is valid and the user confirms. While the server checks or
 * stores, the rows so far out of all show with a cancel; a cancelled import stores nothing (the
 * server rolls it back), and if it finished first the user is told it was stored.
 */
export default function UploadDialog({ open, flow, entity, onClose, onDone }: Props) {
  const t = useT();
  const [state, dispatch] = useReducer(uploadStep, initialUpload);
  const [templateBusy, setTemplateBusy] = useState(false);
  const title = entityTitle(t, entity);
  // The dialog imports records ("导入车辆"), not the page ("导入车辆管理").
  const item = itemTitle(t, entity);
  const renew = flow.kind === 'renew';
  const watch = useRowProgress();
  const run = useRef<{ controller: AbortController; id: string } | null>(null);
  const [cancelling, setCancelling] = useState(false);

  /** Sends the file with a fresh progress id, followed until it answers. */
  const send = async <T,>(call: UploadFlow['validate'], file: File): Promise<T> => {
    const r = { controller: new AbortController(), id: watch.begin() };
    run.current = r;
    try {
      return await uploadSheet<T>(call, file, file.name, { signal: r.controller.signal, progressId: r.id });
    } finally {
      if (run.current === r) run.current = null;
      watch.stop();
    }
  };
  const aborted = (e: unknown) =>
    (e as { name?: string; code?: string })?.code === 'ERR_CANCELED' || (e as { name?: string })?.name === 'CanceledError';

  /** Stops the check or the store under way: the request is aborted and the server told; its answer says whether rows were stored first. */
  const cancelRun = async () => {
    const r = run.current;
    if (!r) return;
    const storing = state.phase === 'applying';
    setCancelling(true);
    r.controller.abort();
    let after: RowProgress | null = null;
    // Once the server has reported the run it knows whether the rows were stored first; before
    // that the abort alone stops it (it rolls back when the connection closes).
    if (watch.rows)
      try {
        after = await cancelProgress(r.id);
      } catch {
        // Gone from the server: it never stored anything under it.
      }
    setCancelling(false);
    if (storing && after?.state === 'done') {
      void feedback().message.warning(t('console.sheet.cancelTooLate'));
      dispatch({ type: 'reset' });
      onClose();
      onDone();
      return;
    }
    dispatch({ type: 'cancelled', notice: t(storing ? 'console.sheet.cancelledImport' : 'console.sheet.cancelledCheck') });
  };

  const failed = (e: unknown) => {
    const f = failureOf(e);
    if (!f.status || !SHOWN_HERE.has(f.status)) reportFailure(e);
    dispatch({ type: 'failed', message: f.message ?? t('console.sheet.failed') });
  };

  const check = async (file: File) => {
    const problem = fileProblem(file);
    if (problem) {
      dispatch({ type: 'refused', problem: t(problem.key, problem.params) });
      return;
    }
    dispatch({ type: 'chosen', file });
    try {
      dispatch({ type: 'checked', report: await send<SheetReport>(flow.validate, file) });
    } catch (e) {
      if (!aborted(e)) failed(e);
    }
  };

  const apply = async () => {
    if (state.phase !== 'valid') return;
    dispatch({ type: 'apply' });
    try {
      const done = await send<{ message: string }>(flow.apply, state.file);
      void feedback().message.success(done.message);
      dispatch({ type: 'reset' });
      onClose();
      onDone();
    } catch (e) {
      // Rows that became invalid since the check (e.g. someone stored the same number) come back as a report.
      if (aborted(e)) return;
      const data = (e as { response?: { data?: unknown } }).response?.data;
      if (isSheetReport(data)) dispatch({ type: 'checked', report: data });
      else failed(e);
    }
  };

  const template = async () => {
    setTemplateBusy(true);
    try {
      saveBlob(await downloadSheet(flow.template), templateFileName(t, title, flow.kind));
    } catch {
      // shown by downloadSheet
    } finally {
      setTemplateBusy(false);
    }
  };

  const close = () => {
    if (state.phase === 'applying') return;
    if (state.phase === 'checking') void cancelRun();
    dispatch({ type: 'reset' });
    onClose();
  };

  const busy = state.phase === 'checking' || state.phase === 'applying';
  const file = 'file' in state ? state.file : undefined;

  return (
    <Modal
      open={open}
      title={t(renew ? 'console.sheet.renewTitle' : 'console.sheet.importTitle', { title: item })}
      // It fits a 768 px screen, high or wide: the rows' errors scroll inside, the confirm button stays in view.
      width="min(760px, calc(100vw - 32px))"
      style={{ top: 16 }}
      styles={{ body: { maxHeight: 'calc(100vh - 180px)', overflowY: 'auto' } }}
      onCancel={close}
      maskClosable={!busy}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={close} disabled={state.phase === 'applying'}>
          {t('console.sheet.cancel')}
        </Button>,
        <Button
          key="apply"
          type="primary"
          data-testid="sheet-apply"
          disabled={state.phase !== 'valid' && state.phase !== 'applying'}
          loading={state.phase === 'applying'}
          onClick={() => void apply()}
        >
          {t(renew ? 'console.sheet.confirmRenew' : 'console.sheet.confirmImport')}
        </Button>,
      ]}
    >
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          {t(renew ? 'console.sheet.renewHint' : 'console.sheet.importHint', { size: humanSize(SHEET_MAX_BYTES), rows: SHEET_MAX_ROWS })}{' '}
          <Button
            type="link"
            size="small"
            icon={<DownloadOutlined />}
            loading={templateBusy}
            onClick={() => void template()}
            data-testid="sheet-template"
          >
            {t('console.sheet.template')}
          </Button>
        </Typography.Paragraph>
        <Upload.Dragger
          accept={SHEET_EXTENSIONS.join(',')}
          multiple={false}
          showUploadList={false}
          disabled={busy}
          beforeUpload={(f) => {
            void check(f);
            return Upload.LIST_IGNORE; // we send it ourselves, to the check route
          }}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{t('console.sheet.choose')}</p>
          {file && (
            <p className="ant-upload-hint" data-testid="sheet-file">
              {file.name}
            </p>
          )}
        </Upload.Dragger>
        <Outcome state={state} entity={entity} />
        {busy && <RunProgress rows={watch.rows} cancelling={cancelling} onCancel={() => void cancelRun()} />}
      </Space>
    </Modal>
  );
}

function Outcome({ state, entity }: { state: ReturnType<typeof uploadStep>; entity: string }) {
  switch (state.phase) {
    case 'choose':
      if (state.notice) return <Alert type="info" showIcon message={state.notice} data-testid="sheet-cancelled" />;
      return state.problem ? <Alert type="error" showIcon message={state.problem} data-testid="sheet-problem" /> : null;
    case 'checking':
      return null;
    case 'failed':
      return <Alert type="error" showIcon message={state.message} data-testid="sheet-problem" />;
    case 'valid':
    case 'applying':
      return <ImportPlan report={state.report} entity={entity} />;
    case 'invalid':
      return <ErrorTable report={state.report} entity={entity} />;
  }
}

/** The rows the server has checked or stored so far out of all, and the cancel of the run. */
function RunProgress({ rows, cancelling, onCancel }: { rows: RowProgress | null; cancelling: boolean; onCancel: () => void }) {
  const t = useT();
  const fmt = useNumberFormat();
  const figures = rows && rows.total !== null ? { done: fmt(rows.done), total: fmt(rows.total) } : null;
  const text =
    !rows || rows.phase === 'read' || !figures
      ? t('console.sheet.checking')
      : t(rows.phase === 'store' ? 'console.sheet.progressStore' : 'console.sheet.progressCheck', figures);
  return (
    <Space size={12} data-testid="sheet-progress" data-phase={rows?.phase} data-done={rows?.done} data-total={rows?.total ?? undefined}>
      <Spin size="small" />
      <Typography.Text type="secondary" data-testid="sheet-progress-text">
        {text}
      </Typography.Text>
      <Button size="small" danger loading={cancelling} onClick={onCancel} data-testid="sheet-run-cancel">
        {t('console.sheet.cancelRun')}
      </Button>
    </Space>
  );
}

function ErrorTable({ report, entity }: { report: SheetReport; entity: string }) {
  const t = useT();
  const lines = errorLines(report, (f) => fieldLabel(t, entity, f));
  return (
    <>
      <Alert type="error" showIcon message={report.message} />
      <Table<ErrorLine>
        data-testid="sheet-errors"
        size="small"
        rowKey="key"
        dataSource={lines}
        pagination={linesPagination(lines.length)}
        columns={[
          { title: t('console.sheet.row'), dataIndex: 'row', width: 90 },
          { title: t('console.sheet.field'), dataIndex: 'fieldLabel', width: 180 },
          { title: t('console.sheet.error'), dataIndex: 'message' },
        ]}
      />
    </>
  );
}
