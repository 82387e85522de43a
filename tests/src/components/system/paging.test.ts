import { criteriaOf, pagingBody, tableRequest } from '../../../../src/components/system/paging';
import type { Page, PagingBody } from '../../../../src/services/passport';

describe('paging body of a table request', () => {
  it('keeps the search values only, trimmed, and leaves out blanks', () => {
    expect(
      criteriaOf({
        current: 2,
        pageSize: 50,
        _timestamp: 1,
        loginName: ' li ',
        name: '',
        mobile: '   ',
        memberType: undefined,
        orgId: null,
        at: [],
        status: 'enabled',
        orgIdZero: 0,
      }),
    ).toEqual({
      loginName: 'li',
      status: 'enabled',
      orgIdZero: 0,
    });
  });

  it('maps pager and sorter to SPEC.md §3 (pages from 1) and lets fixed criteria win', () => {
    expect(
      pagingBody(
        { current: 3, pageSize: 10, application: 'obd-web', name: 'x' },
        { lastSignIn: 'descend' },
        { application: 'vehicle-app' },
      ),
    ).toEqual({
      criteria: { application: 'vehicle-app', name: 'x' },
      order: { property: 'lastSignIn', direction: 'DESC' },
      pageIndex: 3,
      pageSize: 10,
    });
    expect(pagingBody({}, { name: 'ascend' })).toEqual({
      criteria: {},
      order: { property: 'name', direction: 'ASC' },
      pageIndex: 1,
      pageSize: 20,
    });
    // A column whose sorter was cleared sends no order.
    expect(pagingBody({ current: 0 }, { name: null })).toEqual({ criteria: {}, pageIndex: 1, pageSize: 20 });
  });

  it('answers the page to the table, and an empty unsuccessful one when the call fails', async () => {
    const seen: PagingBody[] = [];
    const ok = tableRequest(
      async (body): Promise<Page<{ id: number }>> => {
        seen.push(body);
        return { data: [{ id: 1 }], total: 41, pageIndex: body.pageIndex, pageSize: body.pageSize };
      },
      { application: 'vehicle-app' },
    );
    expect(await ok({ current: 2, pageSize: 20, keyword: 'a' })).toEqual({ data: [{ id: 1 }], total: 41, success: true });
    expect(seen).toEqual([{ criteria: { keyword: 'a', application: 'vehicle-app' }, pageIndex: 2, pageSize: 20 }]);
    const failing = tableRequest(() => Promise.reject(new Error('403')));
    await expect(failing({})).resolves.toEqual({ data: [], total: 0, success: false });
  });
});
