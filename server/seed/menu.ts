/**
 * The seeded resource trees (menus and their action codes) of each application: SPEC.md §1's
 * functional areas, with every action code of §6 and every code an entity schema or a
 * hand-written route declares (a test checks that no route guards itself with an unseeded code).
 *
 * `path` is the console route; `url` is the console page key (null → the 404 page, SPEC §2).
 * Names are the Chinese titles; the console may translate them by `menu.<code>` keys.
 *
 * An entity schema with a page (`x-entity.page`) needs no edit here: `withSchemaPages` adds its menu
 * entry when the hand-written tree has none for its key, and any of its action codes the tree lacks.
 */
import { entityFiles } from '../../schemas/generated/registry';
import { NONE } from '../../schemas/kit/authority';
import { translate } from '../../schemas/kit/catalogue';
import type { EntitySchema } from '../../schemas/kit/entity';
import { APPLICATIONS, DEFAULT_APPLICATION, type Application } from '../platform/auth/application';

export type ResourceKind = 'Menu' | 'Action';

export interface ResourceFixture {
  name: string;
  code: string;
  kind: ResourceKind;
  path?: string;
  url?: string | null;
  icon?: string;
  hidden?: boolean;
  affix?: boolean;
  noCache?: boolean;
  activeMenu?: string;
  children?: ResourceFixture[];
}

// The applications are the platform's (auth reads them from requests); re-exported for the seeds' callers.
export { APPLICATIONS, DEFAULT_APPLICATION, type Application };

/** A page: a menu whose route path and page key follow from its parent path and code. */
function page(
  name: string,
  parent: string,
  code: string,
  icon: string,
  actions: Array<[string, string]> = [],
  extra: Partial<ResourceFixture> = {},
): ResourceFixture {
  const path = `${parent}/${code}`;
  return {
    name,
    code: path.slice(1).replace(/\//g, '-'),
    kind: 'Menu',
    path,
    url: path.slice(1),
    icon,
    ...extra,
    children: actions.map(([actionName, actionCode]) => ({ name: actionName, code: actionCode, kind: 'Action' })),
  };
}

function area(name: string, code: string, icon: string, children: ResourceFixture[]): ResourceFixture {
  return { name, code, kind: 'Menu', path: `/${code}`, url: null, icon, children };
}

const crud = (entity: string, label: string): Array<[string, string]> => [
  [`新增${label}`, `${entity}-add`],
  [`编辑${label}`, `${entity}-edit`],
  [`删除${label}`, `${entity}-remove`],
];

/** The hand-written tree: SPEC.md's areas and pages, with their titles and positions. */
export const HAND_WRITTEN_MENU: ResourceFixture[] = [
  { ...page('仪表盘', '', 'dashboard', 'DashboardOutlined', [], { affix: true }) },
  area('告警中心', 'alarm', 'AlertOutlined', [
    page('AI告警', '/alarm', 'ai', 'RobotOutlined', [['处理告警', 'alarm-handle']]),
    page('围栏告警', '/alarm', 'fence', 'GatewayOutlined'),
    page('车载诊断告警', '/alarm', 'obd', 'ToolOutlined'),
    page('终端告警', '/alarm', 'terminal', 'WarningOutlined'),
    page('主动安全告警', '/alarm', 'safety', 'SafetyOutlined'),
    page('全部告警', '/alarm', 'all', 'OrderedListOutlined'),
    page('专家故障库', '/alarm', 'expertFault', 'BookOutlined', crud('expertFault', '故障')),
  ]),
  area('车队管理', 'fleet', 'CarOutlined', [
    page('车辆管理', '/fleet', 'vehicleList', 'CarOutlined', [
      ...crud('vehicle', '车辆'),
      ['绑定终端', 'vehicle-bind'],
      ['解绑终端', 'vehicle-unbind'],
      ['服务续期', 'vehicle-editService'],
      ['导入车辆', 'vehicle-import'],
      ['导出车辆', 'vehicle-export'],
    ]),
    page('车辆品牌', '/fleet', 'brand', 'TagsOutlined', crud('vehicleBrand', '品牌')),
    page('车型', '/fleet', 'vehicleModel', 'BranchesOutlined', crud('vehicleModel', '车型')),
    page('配置解析文件', '/fleet', 'configParseFile', 'FileTextOutlined', crud('configParseFile', '配置解析文件')),
    page('燃油类型', '/fleet', 'fuelType', 'FireOutlined', crud('fuelType', '燃油类型')),
    page('司机管理', '/fleet', 'driver', 'IdcardOutlined', [...crud('driver', '司机'), ['导入司机', 'driver-import']]),
    page('电子围栏', '/fleet', 'fence', 'BorderOutlined', [
      ...crud('fence', '围栏'),
      ['开启围栏', 'fence-open'],
      ['停止围栏', 'fence-stop'],
    ]),
    page('策略', '/fleet', 'strategy', 'ControlOutlined', [
      ...crud('policy', '策略'),
      ['编辑行程设置', 'tripSetting-edit'],
      ['编辑安全评分权重', 'safetyWeights-edit'],
    ]),
    page('终端管理', '/fleet', 'terminal', 'HddOutlined', [
      ...crud('terminal', '终端'),
      ['导入终端', 'terminal-import'],
      ['终端续期', 'terminal-renew'],
      ['下发指令', 'terminal-command'],
      ['远程升级', 'terminal-upgrade'],
      ['重置注册', 'terminal-resetRegistration'],
    ]),
    page('通知', '/fleet', 'notify', 'NotificationOutlined', [...crud('notify', '通知'), ['启用/停用通知', 'notify-enable']]),
    page('任务', '/fleet', 'task', 'CarryOutOutlined', crud('task', '任务')),
    page('排班', '/fleet', 'schedule', 'ScheduleOutlined', crud('schedule', '排班')),
    page('服务期与续费', '/fleet', 'servicePeriod', 'FieldTimeOutlined', [
      ['续费', 'servicePeriod-renew'],
      ['编辑服务期', 'servicePeriod-edit'],
      ['删除服务期', 'servicePeriod-remove'],
    ]),
    page('背书', '/fleet', 'endorsement', 'AuditOutlined', crud('endorsement', '背书')),
    page('实时监控', '/fleet', 'monitor', 'EnvironmentOutlined', [
      ['实时视频', 'video-live'],
      ['录像回放', 'video-playback'],
    ]),
  ]),
  area('保养维修', 'maintenance', 'ToolOutlined', [
    page('保养状态', '/maintenance', 'status', 'AlertOutlined'),
    page('保养计划', '/maintenance', 'schedule', 'ToolOutlined', crud('maintenanceSchedule', '保养计划')),
    page('维修工单', '/maintenance', 'workOrder', 'FileDoneOutlined', crud('workOrder', '维修工单')),
    page('其他费用', '/maintenance', 'vehicleCost', 'MoneyCollectOutlined', crud('vehicleCost', '费用')),
    page('加油卡', '/maintenance', 'fuelCard', 'CreditCardOutlined', crud('fuelCard', '加油卡')),
    page('加油卡交易', '/maintenance', 'fuelCardTransaction', 'TransactionOutlined', crud('fuelCardTransaction', '加油卡交易')),
  ]),
  area('运营管理', 'operation', 'ShopOutlined', [
    page('API用户', '/operation', 'apiUser', 'ApiOutlined', [...crud('apiUser', 'API用户'), ['管理API密钥', 'apiUser-key']]),
    page('事件订阅', '/operation', 'subscription', 'ApiOutlined', [
      ...crud('subscription', '事件订阅'),
      ['重放订阅事件', 'subscription-replay'],
    ]),
    page('转发链路', '/operation', 'forwarding', 'BranchesOutlined', crud('forwardLink', '转发链路')),
    page('商户信息', '/operation', 'business', 'ShopOutlined', crud('merchant', '商户')),
    page('企业信息', '/operation', 'businessInfo', 'BankOutlined', crud('businessInfo', '企业信息')),
    page('公告', '/operation', 'notice', 'SoundOutlined', crud('notice', '公告')),
    page('意见反馈', '/operation', 'feedback', 'MessageOutlined', [['处理反馈', 'feedback-handle']]),
    page('油价', '/operation', 'oilPrice', 'DollarOutlined', crud('oilPrice', '油价')),
    page('停车场', '/operation', 'park', 'CarOutlined', crud('park', '停车场')),
    page('加油站', '/operation', 'oilStation', 'ShopOutlined', crud('oilStation', '加油站')),
  ]),
  area('统计分析', 'statistics', 'BarChartOutlined', [
    page('费用统计', '/statistics', 'cost', 'AccountBookOutlined'),
    page('行驶日报', '/statistics', 'daily', 'CalendarOutlined'),
    page('油耗统计', '/statistics', 'fuel', 'LineChartOutlined'),
    page('健康指数', '/statistics', 'health', 'HeartOutlined'),
    page('司机统计', '/statistics', 'driver', 'IdcardOutlined'),
    page('安全统计', '/statistics', 'safety', 'SafetyOutlined', [['审核安全事件', 'safetyEvent-review']]),
    page('安全评分解读', '/statistics', 'safetyExplain', 'SafetyOutlined', [], { hidden: true, activeMenu: '/statistics/safety' }),
    page('定时报表', '/statistics', 'reportSchedule', 'MailOutlined', [
      ...crud('reportSchedule', '定时报表'),
      ['立即发送报表', 'reportSchedule-send'],
    ]),
  ]),
  area('车队监控', 'team', 'TeamOutlined', [
    page('违规记录', '/team', 'breakRules', 'WarningOutlined'),
    page('订单排班', '/team', 'orderSchedule', 'OrderedListOutlined'),
  ]),
  area('系统管理', 'system', 'SettingOutlined', [
    page('账号管理', '/system', 'account', 'UserOutlined', [
      ['注册账号', 'member-register'],
      ['编辑账号', 'member-edit'],
      ['重置密码', 'member-resetpassword'],
      ['模拟登录', 'member-simulate'],
      ['解除登录锁定', 'member-unlock'],
      ['查看角色分配问题', 'member-roleAudit'],
      ['导入账号', 'member-import'],
      ['导出账号', 'member-export'],
    ]),
    page('APP账号', '/system', 'appAccount', 'MobileOutlined', [['编辑APP账号', 'appMember-edit']]),
    page('国际会员', '/system', 'interMember', 'GlobalOutlined', [
      ...crud('interMember', '国际会员'),
      ['重置国际会员密码', 'interMember-reset'],
    ]),
    page('日志', '/system', 'log', 'FileSearchOutlined', [['查看日志', 'log-view']]),
    page('菜单管理', '/system', 'menu', 'MenuOutlined', [
      ['新增菜单', 'resource-add'],
      ['编辑菜单', 'resource-edit'],
      ['删除菜单', 'resource-remove'],
      ['新增APP菜单', 'resource-add-app-vehicle'],
      ['编辑APP菜单', 'resource-edit-app-vehicle'],
      ['删除APP菜单', 'resource-remove-app-vehicle'],
    ]),
    page('组织管理', '/system', 'org', 'ApartmentOutlined', [
      ['新增组织', 'org-add'],
      ['编辑组织', 'org-edit'],
      ['删除组织', 'org-remove'],
      ['编辑链接', 'org-editLink'],
      ['导入组织', 'org-import'],
      ['导出组织', 'org-export'],
    ]),
    page('角色管理', '/system', 'role', 'SafetyCertificateOutlined', [
      ['新增角色', 'role-add'],
      ['编辑角色', 'role-edit'],
      ['删除角色', 'role-remove'],
      ['角色授权', 'role-authorize'],
      ['新增APP角色', 'role-add-app-vehicle'],
      ['编辑APP角色', 'role-edit-app-vehicle'],
      ['删除APP角色', 'role-remove-app-vehicle'],
      ['APP角色授权', 'role-authorize-app-vehicle'],
    ]),
  ]),
  area('工具', 'tools', 'ToolOutlined', [
    page('JT/T 808 解码', '/tools', 'jt808', 'CodeOutlined'),
    page('标签与消息', '/tools', 'labels', 'TranslationOutlined', [['编辑标签与消息', 'label-edit']]),
  ]),
];

/** Verbs of the action names derived for a schema's codes (`新增` + the entity's Chinese title). */
const ACTION_VERBS: Array<[keyof EntitySchema['x-entity']['permissions'], string]> = [
  ['create', '新增'],
  ['update', '编辑'],
  ['remove', '删除'],
  ['import', '导入'],
  ['export', '导出'],
  ['renew', '续期'],
];

function walk(tree: ResourceFixture[]): ResourceFixture[] {
  return tree.flatMap((r) => [r, ...walk(r.children ?? [])]);
}

/**
 * The tree with every schema page in it: a page whose key (`x-entity.page.key`) no menu carries
 * becomes a menu entry at the end of its area (the menu whose path is the key's folder; at the top
 * level when there is none), titled by `title(entity)`; every action code the schema declares and the
 * tree lacks becomes an action of the entity's page. Pure: the given tree is not changed.
 */
export function withSchemaPages(
  tree: readonly ResourceFixture[],
  schemas: readonly EntitySchema[],
  title: (entity: string) => string,
): ResourceFixture[] {
  const out: ResourceFixture[] = structuredClone(tree as ResourceFixture[]);
  const codes = new Set(actionCodes(out));
  for (const schema of schemas) {
    const x = schema['x-entity'];
    if (!x.page) continue;
    const label = title(x.name);
    const actions: ResourceFixture[] = [];
    for (const [op, verb] of ACTION_VERBS) {
      const code = x.permissions[op];
      if (!code || code === NONE || codes.has(code)) continue;
      codes.add(code);
      actions.push({ name: `${verb}${label}`, code, kind: 'Action' });
    }
    const existing = walk(out).find((r) => r.kind === 'Menu' && r.url === x.page!.key);
    if (existing) {
      existing.children = [...(existing.children ?? []), ...actions];
      continue;
    }
    const slash = x.page.key.lastIndexOf('/');
    const parentPath = '/' + x.page.key.slice(0, slash);
    const parent = walk(out).find((r) => r.kind === 'Menu' && r.path === parentPath);
    const entry = page(label, parent ? parentPath : '', x.page.key.slice(parent ? slash + 1 : 0), x.page.icon ?? 'AppstoreOutlined');
    entry.children = actions;
    if (parent) parent.children = [...(parent.children ?? []), entry];
    else out.push(entry);
  }
  return out;
}

/** The seeded obd-web tree: the hand-written one plus every schema page (titles in zh-CN). */
export const OBD_WEB_MENU: ResourceFixture[] = withSchemaPages(HAND_WRITTEN_MENU, Object.values(entityFiles), (entity) =>
  translate('zh-CN', `entity.${entity}.title`),
);

export const VEHICLE_APP_MENU: ResourceFixture[] = [
  { name: '首页', code: 'app-home', kind: 'Menu', path: '/home', url: 'home', icon: 'home' },
  {
    name: '车辆',
    code: 'app-vehicle',
    kind: 'Menu',
    path: '/vehicle',
    url: 'vehicle',
    icon: 'car',
    children: [
      { name: '车辆定位', code: 'app-vehicle-locate', kind: 'Action' },
      { name: '轨迹回放', code: 'app-vehicle-track', kind: 'Action' },
    ],
  },
  {
    name: '告警',
    code: 'app-alarm',
    kind: 'Menu',
    path: '/alarm',
    url: 'alarm',
    icon: 'bell',
    children: [{ name: '处理告警', code: 'app-alarm-handle', kind: 'Action' }],
  },
  { name: '我的', code: 'app-mine', kind: 'Menu', path: '/mine', url: 'mine', icon: 'user' },
];

export const MENUS: Record<Application, ResourceFixture[]> = { 'obd-web': OBD_WEB_MENU, 'vehicle-app': VEHICLE_APP_MENU };

/** A seeded resource's stored fields, absent texts as null and absent flags as false. */
export function resourceFields(r: ResourceFixture) {
  return {
    name: r.name,
    code: r.code,
    kind: r.kind,
    path: r.path ?? null,
    url: r.url ?? null,
    icon: r.icon ?? null,
    hidden: !!r.hidden,
    affix: !!r.affix,
    noCache: !!r.noCache,
    activeMenu: r.activeMenu ?? null,
  };
}

/** Every action code seeded for an application. */
export function actionCodes(tree: ResourceFixture[]): string[] {
  return tree.flatMap((r) => [...(r.kind === 'Action' ? [r.code] : []), ...actionCodes(r.children ?? [])]);
}
