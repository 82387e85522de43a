-- One term per thing: the driver pages say 司机 (as the vehicle form and the driver list do) and
-- the fuel-type pages say 燃油类型 (as the vehicle form does). Only names still as seeded change;
-- a menu an administrator renamed keeps its name.
UPDATE resource SET name = '燃油类型' WHERE code = 'fleet-fuelType' AND name = '燃料类型';
UPDATE resource SET name = '新增燃油类型' WHERE code = 'fuelType-add' AND name = '新增燃料类型';
UPDATE resource SET name = '编辑燃油类型' WHERE code = 'fuelType-edit' AND name = '编辑燃料类型';
UPDATE resource SET name = '删除燃油类型' WHERE code = 'fuelType-remove' AND name = '删除燃料类型';
UPDATE resource SET name = '司机管理' WHERE code = 'fleet-driver' AND name = '驾驶员';
UPDATE resource SET name = '新增司机' WHERE code = 'driver-add' AND name = '新增驾驶员';
UPDATE resource SET name = '编辑司机' WHERE code = 'driver-edit' AND name = '编辑驾驶员';
UPDATE resource SET name = '删除司机' WHERE code = 'driver-remove' AND name = '删除驾驶员';
UPDATE resource SET name = '导入司机' WHERE code = 'driver-import' AND name = '导入驾驶员';
