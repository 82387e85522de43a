/**
 * The demo's expert fault library: common J1939 faults (SPN / FMI) of trucks and buses and the
 * OBD-II trouble codes (P-, U-codes) the demo terminals report, each with what it means, its usual
 * causes, what to do at once and the workshop's measures, so a fault alarm in the demo reads as a
 * diagnosis rather than a code. SPN / FMI are SAE J1939 numbers; an OBD-II entry also carries an
 * SPN / FMI of the same fault (the library keys every entry by SPN and FMI), and is matched by its code.
 */

import { sql, type Transaction } from 'kysely';
import type { DB } from '../platform/db/tables';

export interface ExpertFaultEntry {
  spn: number;
  fmi: number;
  dtcCode: string | null;
  name: string;
  unit: string;
  level: 'low' | 'medium' | 'high' | 'critical';
  description: string;
  cause: string;
  resolvent: string;
  maintenanceMeasures: string;
}

export const DEMO_EXPERT_FAULTS: readonly ExpertFaultEntry[] = [
  // OBD-II codes the demo terminals report (server/simulator: DTC_POOL, the history's DTCS).
  {
    spn: 1323,
    fmi: 31,
    dtcCode: 'P0301',
    name: '1 缸失火',
    unit: '发动机点火系统',
    level: 'high',
    description: '发动机控制单元检测到 1 缸燃烧不完全（曲轴转速波动超限），持续失火会损坏三元催化器。',
    cause: '火花塞积碳或间隙过大；点火线圈老化击穿；1 缸喷油器堵塞；气缸压力不足（气门密封不良、活塞环磨损）。',
    resolvent: '降低负荷行驶，尽快进站检查；故障灯闪烁时应停止行驶。',
    maintenanceMeasures: '对调点火线圈与火花塞判断故障件；检查喷油器喷射与电阻；测量气缸压力；更换损坏件后清除故障码并路试。',
  },
  {
    spn: 3050,
    fmi: 18,
    dtcCode: 'P0420',
    name: '三元催化器效率低于阈值（1 列）',
    unit: '排放系统',
    level: 'medium',
    description: '前后氧传感器信号对比显示三元催化器储氧能力下降，尾气排放可能超标。',
    cause: '三元催化器老化或中毒（机油、防冻液窜入燃烧室）；长期失火导致催化器过热；后氧传感器失效；排气管漏气。',
    resolvent: '可继续行驶，但应在一周内检修；避免长时间怠速。',
    maintenanceMeasures: '先排除失火与排气泄漏；检查后氧传感器波形；确认催化器失效后更换，并查明机油消耗原因。',
  },
  {
    spn: 4236,
    fmi: 1,
    dtcCode: 'P0171',
    name: '系统过稀（1 列）',
    unit: '燃油系统',
    level: 'medium',
    description: '长期燃油修正持续偏大，混合气偏稀，可能导致加速无力、怠速不稳。',
    cause: '进气系统漏气（真空管、进气歧管垫）；空气流量计脏污；燃油压力偏低（燃油泵、滤清器堵塞）；喷油器堵塞。',
    resolvent: '可继续行驶，避免急加速；尽快检修。',
    maintenanceMeasures: '烟雾法检查进气漏气；清洁或更换空气流量计；测量燃油压力并更换燃油滤清器；检查喷油器。',
  },
  {
    spn: 110,
    fmi: 17,
    dtcCode: 'P0128',
    name: '冷却液温度低于节温器调节温度',
    unit: '冷却系统',
    level: 'low',
    description: '发动机运行足够时间后冷却液温度仍达不到节温器开启温度，油耗与排放上升。',
    cause: '节温器卡在常开位置；冷却液温度传感器信号偏低；寒冷天气长时间低负荷行驶。',
    resolvent: '可正常行驶，冬季注意暖机。',
    maintenanceMeasures: '用诊断仪对比冷却液温度读数与实测温度；更换节温器或温度传感器。',
  },
  {
    spn: 168,
    fmi: 4,
    dtcCode: 'P0562',
    name: '系统电压过低',
    unit: '电气系统',
    level: 'medium',
    description: '控制单元供电电压低于下限，可能导致起动困难、控制单元复位或记录偶发故障。',
    cause: '蓄电池亏电或老化；发电机不发电（皮带打滑、调节器损坏）；搭铁线或电源线接触不良；熄火后用电设备漏电。',
    resolvent: '减少用电设备，尽快检查充电系统；必要时搭电起动。',
    maintenanceMeasures:
      '测量静态与运行时蓄电池电压（运行时应为 27–28.5 V / 13.5–14.5 V）；检查发电机输出与皮带；测量静态漏电流；更换蓄电池。',
  },
  {
    spn: 639,
    fmi: 14,
    dtcCode: 'U0100',
    name: '与发动机控制单元通信中断',
    unit: 'CAN 总线',
    level: 'high',
    description: '其他控制单元在总线上收不到发动机控制单元的报文，仪表、变速器与终端可能读不到发动机数据。',
    cause: 'CAN 总线线束断路或短路；终端电阻失效；发动机控制单元供电或搭铁故障；加装设备干扰总线。',
    resolvent: '注意仪表与发动机状态，尽快进站；发动机熄火无法起动时请求救援。',
    maintenanceMeasures: '测量 CAN-H / CAN-L 对地电压与终端电阻（约 60 Ω）；检查发动机控制单元供电与插接件；逐个断开加装设备排查。',
  },
  // Common J1939 faults of diesel trucks.
  {
    spn: 100,
    fmi: 1,
    dtcCode: null,
    name: '机油压力过低',
    unit: '润滑系统',
    level: 'critical',
    description: '发动机机油压力低于最低报警值，继续运转可能导致拉缸、烧瓦。',
    cause: '机油不足或泄漏；机油黏度不当或变质；机油泵磨损；机油滤清器堵塞；机油压力传感器故障。',
    resolvent: '立即靠边停车熄火，检查机油液位，不得继续行驶。',
    maintenanceMeasures: '机械式压力表实测机油压力；补充或更换规定机油与滤清器；检查机油泵与主轴承间隙；更换压力传感器。',
  },
  {
    spn: 110,
    fmi: 0,
    dtcCode: null,
    name: '冷却液温度过高',
    unit: '冷却系统',
    level: 'critical',
    description: '冷却液温度超过报警上限，发动机有过热损坏的危险。',
    cause: '冷却液不足或泄漏；散热器堵塞；风扇离合器或电子风扇失效；水泵损坏；节温器卡滞在关闭位置。',
    resolvent: '降低负荷，安全处停车怠速降温后熄火；切勿在高温时打开膨胀水箱盖。',
    maintenanceMeasures: '检查冷却液液位与泄漏点；清洗散热器；检查风扇、水泵与节温器；压力测试冷却系统。',
  },
  {
    spn: 168,
    fmi: 1,
    dtcCode: null,
    name: '蓄电池电压过低',
    unit: '电气系统',
    level: 'medium',
    description: '蓄电池电压低于正常工作下限。',
    cause: '蓄电池老化或亏电；发电机充电不足；长时间驻车用电。',
    resolvent: '起动发动机充电，减少驻车用电。',
    maintenanceMeasures: '检测蓄电池容量与内阻；检查发电机与调节器；必要时更换蓄电池。',
  },
  {
    spn: 94,
    fmi: 1,
    dtcCode: null,
    name: '燃油输送压力过低',
    unit: '燃油系统',
    level: 'high',
    description: '低压油路压力不足，发动机可能动力不足、熄火或无法起动。',
    cause: '燃油不足；燃油粗滤、精滤堵塞；油路进气；输油泵损坏；冬季柴油析蜡。',
    resolvent: '检查油量，尽快进站；冬季使用对应标号柴油。',
    maintenanceMeasures: '更换燃油滤清器并排空气；检查输油泵与油管密封；测量低压油路压力。',
  },
  {
    spn: 157,
    fmi: 18,
    dtcCode: null,
    name: '共轨压力过低',
    unit: '燃油系统',
    level: 'high',
    description: '高压共轨实际压力低于目标值，发动机限扭、动力下降。',
    cause: '高压油泵磨损；喷油器回油量过大；限压阀泄漏；燃油计量单元卡滞；低压供油不足。',
    resolvent: '降低负荷行驶，尽快进站。',
    maintenanceMeasures: '测量喷油器回油量；检查燃油计量单元与限压阀；检查高压油泵；排除低压油路故障。',
  },
  {
    spn: 102,
    fmi: 18,
    dtcCode: null,
    name: '增压压力过低',
    unit: '进气系统',
    level: 'medium',
    description: '进气歧管增压压力低于目标值，车辆加速无力、冒黑烟。',
    cause: '中冷器或增压管路漏气；涡轮增压器损坏；废气旁通阀卡滞；空气滤清器堵塞；增压压力传感器故障。',
    resolvent: '避免重载爬坡，尽快进站。',
    maintenanceMeasures: '检查增压管路与中冷器密封；检查空滤；检查增压器叶轮与旁通阀；核对传感器读数。',
  },
  {
    spn: 190,
    fmi: 0,
    dtcCode: null,
    name: '发动机超速',
    unit: '发动机',
    level: 'high',
    description: '发动机转速超过允许上限，可能损坏气门机构。',
    cause: '下长坡时挂低速挡未使用辅助制动；换挡错误；发动机飞车（机油窜入燃烧）。',
    resolvent: '立即松开油门，使用排气制动或缓速器；正确选择挡位。',
    maintenanceMeasures: '读取超速事件记录；检查气门机构；培训驾驶员下坡用挡与辅助制动。',
  },
  {
    spn: 3719,
    fmi: 16,
    dtcCode: null,
    name: 'DPF 碳载量过高',
    unit: '后处理系统',
    level: 'medium',
    description: '柴油颗粒捕集器积碳超过再生阈值，需要再生，否则发动机将限扭。',
    cause: '长期低速、短途行驶，被动再生不足；主动再生被中断；喷油或增压故障导致排烟增多。',
    resolvent: '在高速路段持续行驶 20–30 分钟，或按提示在安全处停车进行驻车再生。',
    maintenanceMeasures: '执行服务再生；检查压差传感器与管路；排查排烟大的根本原因；必要时拆洗 DPF。',
  },
  {
    spn: 4364,
    fmi: 18,
    dtcCode: null,
    name: 'SCR 转化效率过低',
    unit: '后处理系统',
    level: 'high',
    description: '选择性催化还原系统 NOx 转化效率低于限值，排放超标，持续时将限扭。',
    cause: '尿素品质不合格或结晶；尿素喷嘴堵塞；尿素泵故障；SCR 催化器老化或中毒；NOx 传感器故障。',
    resolvent: '使用合格车用尿素（AUS 32），尽快进站。',
    maintenanceMeasures: '检测尿素浓度（32.5%）；检查喷嘴雾化与尿素泵压力；对比前后 NOx 传感器读数；更换催化器。',
  },
  {
    spn: 1761,
    fmi: 1,
    dtcCode: null,
    name: '尿素液位过低',
    unit: '后处理系统',
    level: 'medium',
    description: '尿素箱液位低于报警值，耗尽后发动机将限扭、限速。',
    cause: '尿素消耗未及时补充；液位传感器故障。',
    resolvent: '尽快加注合格车用尿素。',
    maintenanceMeasures: '加注尿素后确认液位显示；检查液位传感器。',
  },
  {
    spn: 3226,
    fmi: 2,
    dtcCode: null,
    name: '出口 NOx 传感器信号异常',
    unit: '后处理系统',
    level: 'medium',
    description: 'SCR 下游氮氧化物传感器信号不稳定或不可信。',
    cause: '传感器老化或进水；线束插头腐蚀；传感器加热未完成；CAN 通信干扰。',
    resolvent: '可继续行驶，尽快检修以免触发限扭。',
    maintenanceMeasures: '检查插接件与线束；读取传感器状态字节；更换 NOx 传感器。',
  },
  {
    spn: 91,
    fmi: 3,
    dtcCode: null,
    name: '油门踏板位置信号电压过高',
    unit: '电控系统',
    level: 'high',
    description: '油门踏板传感器信号高于正常范围，发动机进入怠速或跛行模式。',
    cause: '踏板传感器损坏；信号线对电源短路；插接件进水。',
    resolvent: '安全处停车；车辆仅能低速行驶，尽快进站。',
    maintenanceMeasures: '测量踏板两路信号电压与线束；更换油门踏板总成。',
  },
  {
    spn: 520,
    fmi: 9,
    dtcCode: null,
    name: '变速器控制单元报文超时',
    unit: 'CAN 总线',
    level: 'medium',
    description: '发动机控制单元在规定时间内收不到变速器报文，换挡与扭矩协调可能受限。',
    cause: '变速器控制单元供电故障；CAN 线束接触不良；控制单元软件故障。',
    resolvent: '谨慎驾驶，尽快进站。',
    maintenanceMeasures: '检查变速器控制单元供电与搭铁；检查 CAN 线束；升级控制单元软件。',
  },
  {
    spn: 1569,
    fmi: 31,
    dtcCode: null,
    name: '发动机降扭保护',
    unit: '发动机',
    level: 'high',
    description: '控制单元因其他故障（排放、温度、压力）启动了扭矩限制。',
    cause: '后处理故障；冷却液温度或机油压力异常；尿素耗尽；传感器故障。',
    resolvent: '查看同时出现的其他故障码，按其处理；低速驶往服务站。',
    maintenanceMeasures: '读取全部当前与历史故障码，排除引起降扭的根本故障后清码。',
  },
];

/** Writes the library (a demo database only: tests that script their own entries start without it). */
export async function seedDemoExpertFaults(trx: Transaction<DB>): Promise<void> {
  for (const f of DEMO_EXPERT_FAULTS)
    await sql`INSERT INTO expert_fault (spn, fmi, dtc_code, name, unit, level, description, resolvent, cause, maintenance_measures)
      VALUES (${f.spn}, ${f.fmi}, ${f.dtcCode}, ${f.name}, ${f.unit}, ${f.level}, ${f.description}, ${f.resolvent}, ${f.cause}, ${f.maintenanceMeasures})`.execute(
      trx,
    );
}
