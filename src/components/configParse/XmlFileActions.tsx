import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { App, Button, Space, Tooltip, Upload } from 'antd';
import { useState } from 'react';
import Permission from '../../session/Permission';
import { useT } from '../../session/useT';
import type { EntityPageContext, Row } from '../schema/pageContract';
import {
  downloadXml,
  failureMessage,
  refuseFile,
  REPORTED_STATUSES,
  saveBlob,
  uploadXml,
  UPLOAD_CODE,
  XML_EXTENSION,
} from './xmlFileService';

/**
 * Row actions of a configuration parse file: upload its XML (one .xml file, 1 MB at most, checked
 * here first and again by the server, whose refusal is shown in its words) and download it.
 */
export default function XmlFileActions({ row, ctx }: { row: Row; ctx: EntityPageContext }) {
  const t = useT();
  const { message } = App.useApp();
  const [uploading, setUploading] = useState(false);
  const fileName = typeof row.fileName === 'string' && row.fileName ? row.fileName : null;

  /**
   * A refusal in the server's words: the request layer shows 400/406 messages and handles 401/403/500
   * (SPEC.md §8); what it leaves silent (413 too large, 404, no answer) is shown here.
   */
  const refusal = async (e: unknown, fallback: string) => {
    const f = await failureMessage(e);
    if (f.status === undefined || !REPORTED_STATUSES.includes(f.status)) void message.error(f.message ?? t(fallback), 5);
  };

  const upload = async (file: File) => {
    const refused = refuseFile(file);
    if (refused) {
      void message.error(t(refused.key, refused.params));
      return;
    }
    setUploading(true);
    try {
      await uploadXml(row.id, file, file.name);
      void message.success(t('console.configParse.uploaded'));
      ctx.reload();
    } catch (e) {
      await refusal(e, 'console.configParse.uploadFailed');
    } finally {
      setUploading(false);
    }
  };

  const download = async () => {
    try {
      saveBlob(await downloadXml(row.id), fileName ?? `config-${row.id}.xml`);
    } catch (e) {
      await refusal(e, 'console.configParse.downloadFailed');
    }
  };

  return (
    <Space size={0}>
      <Permission code={UPLOAD_CODE}>
        <Upload
          accept={`${XML_EXTENSION},text/xml,application/xml`}
          showUploadList={false}
          maxCount={1}
          // Sent by hand (not by Upload's own XHR) so the console's headers and messages apply.
          beforeUpload={(file) => {
            void upload(file);
            return Upload.LIST_IGNORE;
          }}
        >
          <Tooltip title={t('console.configParse.uploadHint')}>
            <Button type="link" size="small" icon={<UploadOutlined />} loading={uploading} data-testid="xml-upload">
              {t('console.configParse.upload')}
            </Button>
          </Tooltip>
        </Upload>
      </Permission>
      {fileName && (
        <Button type="link" size="small" icon={<DownloadOutlined />} onClick={() => void download()} data-testid="xml-download">
          {t('console.configParse.download')}
        </Button>
      )}
    </Space>
  );
}
