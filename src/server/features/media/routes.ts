import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';

export async function mediaRoutes(_fastify: FastifyInstance, _ctx: AppContext): Promise<void> {}
