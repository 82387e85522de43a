import { SearchOutlined } from '@ant-design/icons';
import { useNavigate } from '@umijs/max';
import { Select } from 'antd';
import { useMemo, useState } from 'react';
import { menuSearch, searchEntries } from './menuSearch';
import type { MenuRoute } from '../session/navigation';
import { useT } from '../session/useT';

/** Fuzzy search over menu titles; choosing a result opens it. */
export default function HeaderSearch({ routes }: { routes: readonly MenuRoute[] }) {
  const t = useT();
  const navigate = useNavigate();
  const search = useMemo(() => menuSearch(searchEntries(routes)), [routes]);
  const [query, setQuery] = useState('');
  const options = useMemo(() => search(query).map((e) => ({ value: e.path, label: e.title })), [search, query]);
  return (
    <Select
      showSearch
      value={null}
      placeholder={
        <span>
          <SearchOutlined /> {t('console.navbar.search')}
        </span>
      }
      aria-label={t('console.navbar.search')}
      filterOption={false}
      searchValue={query}
      onSearch={setQuery}
      options={options}
      notFoundContent={query.trim() ? t('console.navbar.noMatch') : null}
      onChange={(path: string) => {
        setQuery('');
        navigate(path);
      }}
      style={{ width: 200 }}
      variant="borderless"
      className="fs-header-search"
    />
  );
}
