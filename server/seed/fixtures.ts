import type { Driver, FuelType, Terminal, Vehicle, VehicleBrand } from '../../schemas/generated/types';

/**
 * The one demo fixture set: seeds the embedded database and feeds the console-only mock handlers.
 * Relations are by natural key (organisation code, brand name, terminal number) and resolved on load.
 */
export interface OrgFixture {
  code: string;
  name: string;
  parent?: string;
  type: 'factory' | 'inPlant' | 'service' | 'client' | 'serviceTeam';
  contact?: string;
  phone?: string;
  address?: string;
  isSystem?: boolean;
}

type Scoped<T> = Omit<T, 'id' | 'orgId' | 'orgName' | 'createdAt' | 'updatedAt'> & { org: string };

export interface DemoFixtures {
  organisations: OrgFixture[];
  brands: Array<Scoped<VehicleBrand>>;
  fuelTypes: Array<Scoped<FuelType>>;
  terminals: Array<Scoped<Terminal>>;
  drivers: Array<Scoped<Driver>>;
  vehicles: Array<
    Omit<Scoped<Vehicle>, 'brandId' | 'fuelTypeId' | 'terminalId' | 'driverId' | 'brandName' | 'fuelTypeName' | 'driverName'> & {
      brand?: string;
      fuelType?: string;
      driver?: string;
    }
  >;
}

export const ROOT_ORG = 'FS';

const organisations: OrgFixture[] = [
  {
    code: ROOT_ORG,
    name: '车管星平台',
    type: 'service',
    isSystem: true,
    contact: '平台运营',
    phone: '4008808808',
    address: '北京市海淀区中关村大街1号',
  },
  {
    code: 'HD',
    name: '华东物流有限公司',
    parent: ROOT_ORG,
    type: 'client',
    contact: '王建国',
    phone: '02168880001',
    address: '上海市浦东新区张江路88号',
  },
  { code: 'HD-SH', name: '上海车队', parent: 'HD', type: 'serviceTeam', contact: '李明', phone: '13916880001' },
  { code: 'HD-HZ', name: '杭州车队', parent: 'HD', type: 'serviceTeam', contact: '陈静', phone: '13757180002' },
  {
    code: 'HN',
    name: '华南运输集团',
    parent: ROOT_ORG,
    type: 'client',
    contact: '张伟',
    phone: '075528880003',
    address: '深圳市南山区科技园南路6号',
  },
  { code: 'HN-SZ', name: '深圳车队', parent: 'HN', type: 'serviceTeam', contact: '刘洋', phone: '13823780004' },
];

const brandRows: Array<[string, string, string]> = [
  ['解放', '一汽解放汽车有限公司', '中国'],
  ['东风', '东风汽车集团有限公司', '中国'],
  ['重汽', '中国重型汽车集团有限公司', '中国'],
  ['福田', '北汽福田汽车股份有限公司', '中国'],
  ['比亚迪', '比亚迪股份有限公司', '中国'],
];
const clients = ['HD', 'HN'];
const brands = clients.flatMap((org) =>
  brandRows.map(([name, manufacturer, country]) => ({ org, name, manufacturer, country, enabled: true })),
);

const fuelTypes = clients.flatMap((org) => [
  { org, name: '92号汽油', category: 'gasoline' as const, price: 7.52, unit: 'L' as const, enabled: true },
  { org, name: '95号汽油', category: 'gasoline' as const, price: 8.03, unit: 'L' as const, enabled: true },
  { org, name: '0号柴油', category: 'diesel' as const, price: 7.19, unit: 'L' as const, enabled: true },
  { org, name: '电', category: 'electric' as const, price: 1.2, unit: 'kWh' as const, enabled: true },
]);

const teams: Array<{ org: string; prefix: string; client: string }> = [
  { org: 'HD-SH', prefix: '沪A', client: 'HD' },
  { org: 'HD-HZ', prefix: '浙A', client: 'HD' },
  { org: 'HN-SZ', prefix: '粤B', client: 'HN' },
];
const surnames = ['王', '李', '张', '刘', '陈', '杨', '赵', '黄', '周', '吴'];
const givenNames = ['伟', '芳', '强', '磊', '军', '洋', '勇', '杰', '涛', '明'];
const VIN_CHARS = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';

/** Deterministic VIN-shaped strings, so every seeding gives the same demo. */
function vin(n: number): string {
  let s = 'LFW';
  let x = n * 2654435761;
  while (s.length < 17) {
    s += VIN_CHARS[x % VIN_CHARS.length];
    x = Math.floor(x / VIN_CHARS.length) + 7919 * s.length;
  }
  return s;
}

const PER_TEAM = 8;
const terminals: DemoFixtures['terminals'] = [];
const drivers: DemoFixtures['drivers'] = [];
const vehicles: DemoFixtures['vehicles'] = [];
teams.forEach((team, t) => {
  for (let i = 0; i < PER_TEAM; i++) {
    const n = t * PER_TEAM + i + 1;
    const terminalNo = `8080${String(n).padStart(8, '0')}`;
    terminals.push({
      org: team.org,
      terminalNo,
      sim: `1440${String(n).padStart(9, '0')}`,
      hardwareVersion: 'HW-2.1',
      manufacturer: '车管星科技',
      productionDate: `2025-${String((n % 12) + 1).padStart(2, '0')}-15`,
      terminalType: 'obd',
      protocol: n % 5 === 0 ? '2019' : '2013',
      debug: false,
      inUse: true,
    });
    // Every tenth driver a name on, so no two of the fleet share one (up to a hundred).
    const driverName = surnames[n % 10] + givenNames[(n * 3 + Math.floor(n / 10)) % 10];
    drivers.push({
      org: team.org,
      name: driverName,
      mobile: `139${String(10000000 + n * 7919).slice(-8)}`,
      gender: n % 4 === 0 ? 'female' : 'male',
      licenseNo: `31010119${String(800000000 + n * 104729).slice(-10)}`,
      licenseClass: i % 2 ? 'B2' : 'A2',
      licenseExpire: `${2027 + (n % 4)}-06-30`,
      status: 'active',
      // The qualification certificate number on the driver's IC card (the simulator's card reports carry it).
      cardNo: `QC${310000 + n * 97}`,
    });
    const serviceEnd = i === PER_TEAM - 1 ? '2026-01-31' : `${2027 + (n % 2)}-12-31`;
    vehicles.push({
      org: team.org,
      licence: `${team.prefix}${String(10000 + n * 137).slice(-5)}`,
      vin: vin(n),
      plateColor: i % 3 === 0 ? 'yellow' : 'blue',
      brand: brandRows[n % brandRows.length][0],
      fuelType: i % 4 === 3 ? '电' : '0号柴油',
      terminalNo,
      driver: driverName,
      customer: ['顺达快运', '海通冷链', '远航物流', '城配速递'][n % 4],
      model: ['J6P 牵引车', '天龙 KL', '豪沃 T7H', '欧曼 EST', '比亚迪 T5'][n % 5],
      color: ['白色', '蓝色', '红色', '银色'][n % 4],
      tankCapacity: i % 4 === 3 ? null : 400,
      initialMileage: 10000 + n * 1234,
      serviceStart: '2025-01-01',
      serviceEnd,
      status: 'normal',
    });
  }
});

export const demoFixtures: DemoFixtures = { organisations, brands, fuelTypes, terminals, drivers, vehicles };
