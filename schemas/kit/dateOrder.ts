import { _, type CodeKeywordDefinition, type KeywordCxt } from 'ajv';

/**
 * `"x-notBefore": "<sibling property>"` on a date property: when both are set, this one must not
 * come before the sibling (ISO dates compare as text). One rule in the schema, so the add and edit
 * forms, the import and the renew dialog refuse the same input with the same words. A code keyword:
 * ajv's standalone output inlines it, so the console's precompiled validators carry it too.
 */
export const notBeforeKeyword: CodeKeywordDefinition = {
  keyword: 'x-notBefore',
  type: 'string',
  schemaType: 'string',
  code(cxt: KeywordCxt) {
    const { data, schema, it } = cxt;
    const sibling = _`${it.parentData}[${schema as string}]`;
    cxt.fail(
      _`${it.parentData} !== undefined && typeof ${sibling} == "string" && ${sibling} !== "" && ${data} !== "" && ${data} < ${sibling}`,
    );
  },
  error: { message: 'must not be before its sibling', params: ({ schema }) => _`{sibling: ${schema as string}}` },
};
