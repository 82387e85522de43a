import XmlFileActions from '../../components/configParse/XmlFileActions';
import { entityPage } from '../../components/schema/EntityPage';

/** The configuration parse files: the schema page, with each row's XML upload and download. */
export default entityPage('configParseFile', {
  rowActions: (row, ctx) => [<XmlFileActions key="xml" row={row} ctx={ctx} />],
});
