/** Request and answer classes: class-validator rules in, class-transformer shapes out. */
import { Exclude, Expose, Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import type { EstadoTransaccion } from './entities.js';

export class RecetaItemDto {
  @IsString() @Length(1, 200) nombre: string;
  @IsInt() @Min(1) @Max(999) cantidad: number;
  @IsOptional() @Matches(/^[A-Za-z0-9-]{1,32}$/) codigo?: string;
}

export class RegistrarRecetaDto {
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.replace(/\./g, '') : value,
  )
  @Matches(/^\d{7,8}$/)
  documento_paciente: string;

  @Matches(/^[A-Za-z0-9]{1,20}$/) matricula_profesional: string;
  @IsOptional() @IsString() @Length(1, 40) refeps_id?: string;
  @IsString() @Length(1, 200) locacion: string;
  @Matches(/^\d{41}$/) cuir: string;
  @IsOptional() @IsString() @Length(1, 64) id_de_receta?: string;
  @IsOptional() @IsString() @Length(1, 200) nombre_medicamento?: string;
  @IsISO8601({ strict: true }) fecha_creacion: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => RecetaItemDto)
  items: RecetaItemDto[];
}

export class ListarRecetasQuery {
  @IsISO8601() fecha_desde: string;
  @IsISO8601() fecha_hasta: string;
  @IsOptional() @Matches(/^[A-Za-z0-9]{1,20}$/) matricula?: string;
  @IsOptional() @Matches(/^\d{7,8}$/) documento?: string;
  @IsOptional() @IsIn(['PENDING', 'COMPLETED', 'FAILED']) estado?: EstadoTransaccion;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) page: number = 1;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(200) per_page: number = 50;
  @IsOptional() @Matches(/^\d{1,18}$/) as_of?: string;
}

/** A registration's answer. */
@Exclude()
export class RecetaRegistradaDto {
  @Expose() id_transaccion: string;
  @Expose() estado: EstadoTransaccion;
  @Expose() mensaje: string;
  @Expose() cuir: string;
  @Expose() id_de_receta: string | null;

  constructor(partial: Partial<RecetaRegistradaDto>) {
    Object.assign(this, partial);
  }
}

/** A listing item: the entity with only the summary's fields exposed. */
@Exclude()
export class RecetaResumenDto {
  @Expose() id_transaccion: string;
  @Expose() id_de_receta: string | null;
  @Expose() cuir: string;
  @Expose() fecha_creacion: Date;
  @Expose() matricula_profesional: string;
  @Expose() documento_paciente: string;
  @Expose() estado: EstadoTransaccion;

  constructor(partial: Partial<RecetaResumenDto>) {
    Object.assign(this, partial);
  }
}

export class ListadoDto {
  total: number;
  total_exact: boolean;
  page: number;
  per_page: number;
  @Type(() => RecetaResumenDto) items: RecetaResumenDto[];
  as_of: string;

  constructor(partial: ListadoDto) {
    Object.assign(this, partial);
  }
}
