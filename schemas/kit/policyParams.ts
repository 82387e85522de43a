/**
 * A policy's per-type parameters: one JSON Schema per alarm type, `oneOf` on `alarmType`, shared
 * by the server (which validates every policy write against it) and the console's policy form.
 * They extend `threshold` and `durationMinutes`, which keep their meaning (OverSpeed: km/h and how
 * long; Idle, OfflineLongTime, StopLongTime: how long; Low: volts).
 */

import { SPEC_ALARM_TYPES } from './alarmModel';

const int = (minimum: number, maximum: number, def: number, title: string) => ({ type: 'integer', minimum, maximum, default: def, title });

/** Types with parameters of their own, and those parameters. */
export const POLICY_PARAMS: Record<string, { type: 'object'; additionalProperties: false; properties: Record<string, unknown> }> = {
  OverSpeed: { type: 'object', additionalProperties: false, properties: { durationSeconds: int(0, 3600, 0, 'durationSeconds') } },
  Idle: { type: 'object', additionalProperties: false, properties: { maxSpeedKmh: int(0, 20, 5, 'maxSpeedKmh') } },
  RepeatArrival: {
    type: 'object',
    additionalProperties: false,
    properties: { radiusM: int(20, 5000, 200, 'radiusM'), count: int(2, 50, 3, 'count'), windowHours: int(1, 720, 24, 'windowHours') },
  },
  Fatigue: {
    type: 'object',
    additionalProperties: false,
    properties: { hours: int(1, 24, 4, 'hours'), restMinutes: int(5, 240, 20, 'restMinutes') },
  },
};

/**
 * The root schema the console's rjsf form renders and validates for a type's parameters (with an
 * `$id`, the key of its precompiled validator in schemas/generated/policyParamsValidators.ts).
 */
export function policyParamsFormSchema(type: string): Record<string, unknown> | null {
  const params = POLICY_PARAMS[type];
  return params ? { $id: `policyParams${type}`, ...params } : null;
}

/** Every alarm type a policy may name (the policy schema's enum). */
export const POLICY_ALARM_TYPES = [...SPEC_ALARM_TYPES, 'Fatigue', 'FenceIn', 'FenceOut', 'FuelDrain', 'RepeatArrival', 'Skewing'] as const;

/** `{alarmType, params}`: exactly one branch matches, by alarm type. */
export const POLICY_PARAMS_SCHEMA = {
  $id: 'policyParams',
  type: 'object',
  required: ['alarmType'],
  oneOf: [
    ...Object.entries(POLICY_PARAMS).map(([type, params]) => ({
      properties: { alarmType: { const: type }, params: { anyOf: [{ type: 'null' }, params] } },
    })),
    {
      properties: {
        alarmType: { enum: POLICY_ALARM_TYPES.filter((t) => !(t in POLICY_PARAMS)) },
        params: { anyOf: [{ type: 'null' }, { type: 'object', maxProperties: 0 }] },
      },
    },
  ],
} as const;

export type PolicyParams = Record<string, number>;
